/**
 * Three tiers, as jest projects (`--selectProjects NAME`; scripts/test.sh picks and provisions them):
 *   unit       test/unit: parsers, mappings, metrics, domain; no services at all
 *   workflows  test/workflows (the real workflow code on fake activities) and test/replay
 *              (committed histories); a Temporal CLI dev server, no Docker, no Postgres
 *   services   test/integration, test/e2e: the real parts (Temporal, Postgres, Docker, images)
 *   agents     test/agents: the presets' real CLIs from the npm registry in their sandboxes, against
 *              the model-API double (Docker, images, and for the studies Temporal and Postgres)
 *   deploy     test/deploy: the deployments (the real Temporal server built from Go modules in a
 *              cluster and in compose, the images rebuilt cold, CPU torch installed for the DDP probe)
 */
const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', isolatedModules: true }] },
};

/** The folders of each tier; scripts/test.sh reads them back from `projects` to provision only what is needed. */
const TIERS = {
  unit: ['test/unit'],
  workflows: ['test/workflows', 'test/replay'],
  services: ['test/integration', 'test/e2e'],
  agents: ['test/agents'],
  deploy: ['test/deploy'],
};

/** @type {import('jest').Config} */
module.exports = {
  testTimeout: 120000,
  projects: Object.entries(TIERS).map(([displayName, roots]) => ({
    ...shared,
    displayName,
    roots: roots.map((r) => `<rootDir>/${r}`),
  })),
};
