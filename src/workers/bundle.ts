import { bundleWorkflowCode } from '@temporalio/worker';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const WORKFLOWS_PATH = require.resolve('../workflows');

function sourceHash(root: string): string {
  const h = createHash('sha256');
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(js|ts)$/.test(e.name)) h.update(p).update(fs.readFileSync(p));
    }
  };
  walk(root);
  return h.digest('hex').slice(0, 16);
}

/**
 * The build id of this code's workflows: a hash of the compiled sources the bundle is made of. Workers
 * of one build id run the same workflow code (deploy/README.md, "Upgrading").
 */
let buildId: string | undefined;
export function workflowBuildId(): string {
  // The compiled sources do not change under a running process: hashed once (the bundle cache and versioning both ask).
  buildId ??= sourceHash(path.resolve(path.dirname(WORKFLOWS_PATH), '..'));
  return buildId;
}

/**
 * The workflow bundle, cached under the state folder by a hash of the compiled sources, so that a
 * second start skips webpack (several seconds) unless the code changed.
 */
export async function cachedWorkflowBundle(stateDir: string): Promise<{ code: string }> {
  const file = path.join(stateDir, 'bundles', `workflows-${workflowBuildId()}.js`);
  if (fs.existsSync(file)) return { code: fs.readFileSync(file, 'utf8') };
  const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietLogger });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file + '.tmp', code);
  fs.renameSync(file + '.tmp', file);
  return { code };
}

const noop = () => undefined;
const quietLogger = { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: (m: string) => console.error(m) };
