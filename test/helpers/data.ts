import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '../..');

/**
 * The reference data (the EnvGap data set and papers), found one way: `ENVGAP_DATA` when set,
 * otherwise `shared/` beside the checkout (`<repo>/../shared`), as in CI, where it is a read-only copy.
 * Its layout: `data/envgap/{prompts,results,published}`.
 */
export function referenceDataRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.ENVGAP_DATA ? path.resolve(env.ENVGAP_DATA) : path.resolve(REPO_ROOT, '..', 'shared');
}

/**
 * A file or folder of the reference data that a test needs. Missing, it throws, so the test fails
 * (never skips) and says where it looked.
 */
export function referenceData(...parts: string[]): string {
  const p = path.join(referenceDataRoot(), ...parts);
  if (!fs.existsSync(p)) throw new Error(`reference data not found: looked in ${p} (set ENVGAP_DATA)`);
  return p;
}

/** The EnvGap data set folder (`data/envgap`), or a path inside it. */
export function envgapData(...parts: string[]): string {
  return referenceData('data', 'envgap', ...parts);
}
