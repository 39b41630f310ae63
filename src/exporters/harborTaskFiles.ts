import type { ReadinessStudyInput, RepoSpec } from '../domain/readinessStudy';
import { envgapMetadataTable } from '../importers/harborEnvgapMetadata';
import { READINESS_PACKAGES } from '../readiness/images';
import { REPO_ROOT, REPORT_PATH } from '../readiness/paths';
import { READINESS_PROMPT } from '../readiness/prompt';
import { tomlDocument, tomlFloat } from './harborTomlWriter';
import { ENVGAP_VERIFY_PY } from './harborVerifyPy';

/** A file of the exported task: its text, or a folder or file of this machine copied there. */
export type ExportFile = { path: string; text: string; mode?: number } | { path: string; copyDir: string } | { path: string; unpack: string };

/** Where the repository's hidden scripts go in the task: under tests/, which Harbor copies in after the agent. */
export const EXPORTED_SCRIPTS = 'envgap-scripts';
/** The Harbor package organisation of exported tasks. */
export const EXPORT_ORG = 'envgap';

/** The task's folder and [task].name: the repository id, "@" (owner@name) as "__", as Harbor's org/name allows. */
export function exportedTaskName(id: string): string {
  return id.replace(/@/g, '__').replace(/[^A-Za-z0-9._-]/g, '-');
}

function dockerfile(repo: RepoSpec): string {
  const lines = [
    '# envgap export harbor: the readiness protocol\'s starting point (envgap\'s readiness image): Debian with',
    '# Python 3, venv, pip, git and a C/C++ toolchain, the repository at /repo, the report\'s folder.',
    'FROM debian:bookworm-slim',
    `RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates ${READINESS_PACKAGES.join(' ')} \\`,
    '    && rm -rf /var/lib/apt/lists/*',
    `RUN mkdir -p ${REPORT_PATH.slice(0, REPORT_PATH.lastIndexOf('/'))} ${REPO_ROOT}`,
    `ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore REPO_ROOT=${REPO_ROOT}`,
    `WORKDIR ${REPO_ROOT}`,
  ];
  if (repo.source.kind === 'git') lines.push(`RUN git clone ${repo.source.url} ${REPO_ROOT} && git -C ${REPO_ROOT} checkout ${repo.source.commit}`);
  else lines.push(`COPY repo/ ${REPO_ROOT}/`);
  return `${lines.join('\n')}\n`;
}

const TEST_SH = `#!/bin/bash
# envgap export harbor: envgap's readiness checks (docs/harbor.md) in the environment the agent set up;
# they write /logs/verifier/reward.json and envgap.json.
mkdir -p /logs/verifier
exec /usr/bin/python3 /tests/envgap_verify.py /tests/envgap_repo.json
`;

const SOLVE_SH = `#!/bin/bash
# envgap export harbor: no reference solution. The readiness protocol has none: an environment is judged by
# the checks in tests/, not compared with one. This script only writes an empty report, so Harbor's oracle
# agent runs and the checks show what a bare environment scores.
mkdir -p ${REPORT_PATH.slice(0, REPORT_PATH.lastIndexOf('/'))}
`;

/**
 * A readiness repository as a Harbor task: task.toml (Harbor's schema, with the repository kept in
 * [metadata.envgap] so that importing the task or a job run on it gives it back), instruction.md
 * (envgap's readiness prompt), environment/ (envgap's readiness image as a Dockerfile, the repository
 * copied in or cloned at its commit), tests/ (test.sh running envgap_verify.py with the repository's
 * settings, its hidden scripts beside them) and solution/solve.sh.
 */
export function harborTaskFiles(study: ReadinessStudyInput, repo: RepoSpec): { folder: string; files: ExportFile[] } {
  const name = exportedTaskName(repo.id);
  const stagesRun = (repo.prepare ? 1 : 0) + repo.supports.filter((s) => repo.entry[s]).length;
  const gpus = repo.supports.includes('multi_gpu') ? 2 : repo.supports.includes('single_gpu') ? 1 : undefined;
  const limits = study.limits;
  const scripts = repo.scripts ? EXPORTED_SCRIPTS : undefined;
  const toml = tomlDocument({
    schema_version: '1.4',
    task: {
      name: `${EXPORT_ORG}/${name}`,
      description: `envgap readiness protocol: make the research repository ${repo.id} ready to run, then write a report of the environment`,
      keywords: ['envgap', 'readiness', 'environment-setup'],
    },
    metadata: {
      category: 'environment-setup',
      envgap: envgapMetadataTable({ protocol: 'readiness', id: repo.id, supports: repo.supports, entry: repo.entry, stageTimeoutS: repo.stageTimeoutS, ...(scripts ? { scripts } : {}), ...(repo.prepare ? { prepare: repo.prepare } : {}) }),
    },
    verifier: { timeout_sec: tomlFloat(repo.stageTimeoutS * Math.max(1, stagesRun) + 600) },
    agent: { timeout_sec: tomlFloat(study.budget.wallS) },
    environment: {
      build_timeout_sec: tomlFloat(1800),
      cpus: limits?.cpus ?? study.cpus,
      memory_mb: limits?.memory_mb ?? study.memoryMb,
      ...(limits?.disk_mb ? { storage_mb: limits.disk_mb } : {}),
      ...(gpus ? { gpus } : {}),
      workdir: REPO_ROOT,
    },
  });
  const config = { repo: repo.id, supports: repo.supports, entry: repo.entry, stage_timeout_s: repo.stageTimeoutS, prepare: repo.prepare ?? null, scripts: scripts ?? null };
  const files: ExportFile[] = [
    { path: 'task.toml', text: toml },
    { path: 'instruction.md', text: READINESS_PROMPT },
    { path: 'environment/Dockerfile', text: dockerfile(repo) },
    { path: 'tests/test.sh', text: TEST_SH, mode: 0o755 },
    { path: 'tests/envgap_verify.py', text: ENVGAP_VERIFY_PY },
    { path: 'tests/envgap_repo.json', text: `${JSON.stringify(config, null, 2)}\n` },
    { path: 'solution/solve.sh', text: SOLVE_SH, mode: 0o755 },
  ];
  if (repo.source.kind === 'folder') files.push({ path: 'environment/repo', copyDir: repo.source.path });
  if (repo.source.kind === 'archive') files.push({ path: 'environment/repo', unpack: repo.source.path });
  if (repo.scripts) files.push({ path: `tests/${EXPORTED_SCRIPTS}`, copyDir: repo.scripts });
  return { folder: name, files };
}
