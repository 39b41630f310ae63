import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { RepoSource } from '../../domain/readinessStudy';
import type { ExecResult } from '../../infra/exec';
import type { Sandbox } from '../../sandbox';

const run = promisify(execFile);

/** The frozen environment of an instance: the session's container, committed. */
export function frozenImageRef(instanceId: string): { repo: string; tag: string; ref: string } {
  const tag = createHash('sha256').update(instanceId).digest('hex').slice(0, 16);
  return { repo: 'envgap-frozen', tag, ref: `envgap-frozen:${tag}` };
}

/** A shell command in the sandbox (bash -c, in /repo; not a login shell, which would reset PATH), judged by its own exit, under a time limit. */
export function shell(sandbox: Sandbox, command: string, timeoutS: number, env: string[] = []): Promise<ExecResult> {
  return sandbox.exec(['bash', '-c', command], { timeoutS, workdir: '/repo', env: ['REPO_ROOT=/repo', ...env] });
}

/** Whether the container's memory cgroup killed something during the command (the wrapper's counters). */
export function oomKilled(r: ExecResult): boolean {
  const before = r.counters?.before.oomKills;
  const after = r.counters?.after.oomKills;
  return before != null && after != null && after > before;
}

/**
 * The repository's files on this worker, in a temporary folder: a folder as it is, an archive unpacked
 * (a single top-level folder is its root), a git URL cloned at the commit. The caller removes it.
 */
export async function checkOut(source: RepoSource): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const tmp = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'envgap-repo-'));
  const cleanup = () => fs.promises.rm(tmp, { recursive: true, force: true });
  try {
    if (source.kind === 'folder') {
      const st = await fs.promises.stat(source.path).catch(() => null);
      if (!st?.isDirectory()) throw new RepoSourceError(`repository folder not found: ${source.path}`);
      await run('cp', ['-a', `${source.path}/.`, tmp]);
    } else if (source.kind === 'archive') {
      if (!fs.existsSync(source.path)) throw new RepoSourceError(`repository archive not found: ${source.path}`);
      await run('tar', ['-xf', source.path, '-C', tmp]);
      const top = await fs.promises.readdir(tmp);
      if (top.length === 1 && (await fs.promises.stat(path.join(tmp, top[0]!))).isDirectory()) {
        const inner = path.join(tmp, top[0]!);
        return { dir: inner, cleanup };
      }
    } else {
      await run('git', ['clone', '--quiet', source.url, tmp], { timeout: 600_000 });
      await run('git', ['-C', tmp, 'checkout', '--quiet', source.commit]);
    }
    return { dir: tmp, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/** A repository source that can never be used (not there): the instance's input is wrong, not the harness. */
export class RepoSourceError extends Error {
  override name = 'RepoSourceError';
}

/** sha256sum's lines as `hash<TAB>path` (a leading `./` dropped), as parseTrackedFiles reads them. */
const AS_TSV = `sed 's/^\\([0-9a-f]*\\)  \\(\\.\\/\\)\\?/\\1\\t/'`;

/** `hash<TAB>path` of every regular file under /repo, sorted: the repository's tracked files as copied. */
export const TRACKED_FILES_COMMAND = `cd /repo && find . -type f -not -path './.git/*' -print0 | sort -z | xargs -0 -r sha256sum | ${AS_TSV}`;

/** The same files hashed again after the session (a deleted one prints nothing). */
export const TRACKED_FILES_AGAIN_COMMAND = `cd /repo && cut -f2- /tmp/envgap-tracked.tsv | xargs -d '\\n' -r sha256sum -- 2>/dev/null | ${AS_TSV}`;
