import type Docker from 'dockerode';
import { createHash } from 'node:crypto';
import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { RepoSource } from '../../domain/readinessStudy';
import { execInContainer, removeContainerIfExists, type ExecResult } from '../../infra/docker';
import { CA_ENV } from '../../infra/recipes';

const run = promisify(execFile);

/** Every container of an instance is named from its id, so a retried activity finds (or replaces) its own. */
export function readinessContainerName(instanceId: string, role: string): string {
  return `envgap-r-${createHash('sha256').update(instanceId).digest('hex').slice(0, 16)}-${role}`;
}

/** The frozen environment of an instance: the session's container, committed. */
export function frozenImageRef(instanceId: string): { repo: string; tag: string; ref: string } {
  const tag = createHash('sha256').update(instanceId).digest('hex').slice(0, 16);
  return { repo: 'envgap-frozen', tag, ref: `envgap-frozen:${tag}` };
}

export const READINESS_LABEL = 'envgap.readiness';

export interface ContainerSpec {
  name: string;
  image: string;
  instanceId: string;
  memoryMb: number;
  cpus: number;
  network: string;
  env?: string[];
  binds?: string[];
  /** Give the container every GPU (Docker device requests, the NVIDIA runtime). */
  gpus?: boolean;
}

/** A fresh container that sleeps until told; one of the same name is replaced. */
export async function startContainer(docker: Docker, spec: ContainerSpec): Promise<Docker.Container> {
  await removeContainerIfExists(docker, spec.name);
  const container = await docker.createContainer({
    name: spec.name,
    Image: spec.image,
    Cmd: ['sleep', 'infinity'],
    WorkingDir: '/repo',
    Env: [...CA_ENV, ...(spec.env ?? [])],
    Labels: { [READINESS_LABEL]: spec.instanceId },
    HostConfig: {
      Memory: spec.memoryMb * 1024 * 1024,
      MemorySwap: spec.memoryMb * 1024 * 1024,
      NanoCpus: Math.round(spec.cpus * 1e9),
      Init: true,
      NetworkMode: spec.network,
      Binds: spec.binds ?? [],
      ...(spec.gpus ? { DeviceRequests: [{ Driver: 'nvidia', Count: -1, Capabilities: [['gpu']] }] } : {}),
    },
  });
  await container.start();
  return container;
}

export async function isRunning(docker: Docker, name: string): Promise<boolean> {
  try {
    return Boolean((await docker.getContainer(name).inspect()).State?.Running);
  } catch {
    return false;
  }
}

/** A shell command in the container (bash -c, in /repo; not a login shell, which would reset PATH), judged by its own exit, under a time limit. */
export function shell(container: Docker.Container, command: string, timeoutS: number, env: string[] = []): Promise<ExecResult> {
  return execInContainer(container, ['bash', '-c', command], { timeoutS, workdir: '/repo', env: ['REPO_ROOT=/repo', ...env] });
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

/** Copies a folder into the container at /repo (a tar of it, through Docker's archive API). */
export async function copyIntoContainer(container: Docker.Container, dir: string): Promise<void> {
  const tar = spawn('tar', ['-C', dir, '--exclude=./.git', '-cf', '-', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await container.putArchive(tar.stdout, { path: '/repo' });
}

/** sha256sum's lines as `hash<TAB>path` (a leading `./` dropped), as parseTrackedFiles reads them. */
const AS_TSV = `sed 's/^\\([0-9a-f]*\\)  \\(\\.\\/\\)\\?/\\1\\t/'`;

/** `hash<TAB>path` of every regular file under /repo, sorted: the repository's tracked files as copied. */
export const TRACKED_FILES_COMMAND = `cd /repo && find . -type f -not -path './.git/*' -print0 | sort -z | xargs -0 -r sha256sum | ${AS_TSV}`;

/** The same files hashed again after the session (a deleted one prints nothing). */
export const TRACKED_FILES_AGAIN_COMMAND = `cd /repo && cut -f2- /tmp/envgap-tracked.tsv | xargs -d '\\n' -r sha256sum -- 2>/dev/null | ${AS_TSV}`;
