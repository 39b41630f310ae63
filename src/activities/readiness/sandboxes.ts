import type Docker from 'dockerode';
import type { SandboxLimits } from '../../domain/sandboxLimits';
import type { LimitClass, SandboxRecord } from '../../domain/sandboxRecord';
import type { ExecResult } from '../../infra/exec';
import { CA_ENV } from '../../infra/recipes';
import type { Settings } from '../../infra/settings';
import type { GpuRequest } from '../../sandbox/gpuChoice';
import { removeEarlierAttempts, Sandbox, SANDBOX_LABELS, sandboxIdentity, type SandboxDeps, type SandboxOwner, type SandboxSpec } from '../../sandbox';

/**
 * The spec of every container of the readiness and README protocols (agent sessions, probes, Pass@1):
 * the repository at /repo, the sandbox network, the study's limits (pids, disk and /dev/shm included),
 * a name unique per attempt. The shared download caches are not mounted: with pip's cache folder
 * read-only, pip 23 cannot install a source distribution it has not built before ("Building wheel
 * failed: [Errno 30] Read-only file system: '/root/.cache/pip/wheels'"), so pip keeps a cache of its
 * own in the sandbox, under disk_mb, and the shared one stays out of the agent's reach. A full disk
 * refuses writes and kills nothing: the session's later steps, and its end, still run.
 */
export interface RepoSandbox {
  owner: SandboxOwner;
  image: string;
  limits: SandboxLimits;
  env?: string[];
  binds?: string[];
  gpus?: boolean | GpuRequest;
}

export function repoSandboxSpec(o: RepoSandbox): SandboxSpec {
  return {
    image: o.image,
    ...sandboxIdentity(o.owner),
    limits: o.limits,
    network: 'sandbox',
    caches: { binds: [], mode: 'none' },
    env: [...CA_ENV, ...(o.env ?? [])],
    binds: o.binds ?? [],
    workdir: '/repo',
    gpus: o.gpus ?? false,
    onDiskFull: 'refuse',
  };
}

export function sandboxDeps(d: { docker: Docker; settings: Settings; log?: (line: string) => void }): SandboxDeps {
  return { docker: d.docker, settings: d.settings, log: (line) => d.log?.(`[disk] ${line}`) };
}

/** A fresh sandbox for this attempt of an instance's role, the earlier attempts' removed first. */
export async function openForAttempt(deps: SandboxDeps, o: RepoSandbox): Promise<Sandbox> {
  await removeEarlierAttempts(deps.docker, { [SANDBOX_LABELS.instance]: o.owner.instanceId, [SANDBOX_LABELS.role]: o.owner.role }, o.owner.attempt);
  return Sandbox.open(deps, repoSandboxSpec(o));
}

/** A command's output with the limit it reached, if any, said at its end (the agent sees it too). */
export async function withLimit(sandbox: Sandbox, r: ExecResult, who: string): Promise<{ output: string; limit: LimitClass | null }> {
  const hit = await sandbox.limitHit(r, who);
  return hit ? { output: `${r.output.trimEnd()}\n${hit.note}\n`, limit: hit.errorClass } : { output: r.output, limit: null };
}

/** What confined the sandbox, with the limits it reached in its life so far. */
export async function recordWithHits(sandbox: Sandbox): Promise<SandboxRecord> {
  return { ...sandbox.record, limits_hit: await sandbox.limitsHit() };
}

/**
 * Runs `work` on a sandbox an earlier activity opened, then lets go of it (it stays for the next
 * activity). Gone: ContainerGoneError, a plain error, retried (and the instance's worker-loss handling
 * takes over).
 */
export async function withAttached<T>(deps: SandboxDeps, name: string, work: (s: Sandbox) => Promise<T>): Promise<T> {
  const sandbox = await Sandbox.attach(deps, name);
  try {
    return await work(sandbox);
  } finally {
    sandbox.release();
  }
}

/** For a failed copy into the sandbox: true (it failed) where its disk is full, else the error again. */
export function unlessDiskFull(sandbox: Sandbox): (err: unknown) => Promise<true> {
  return async (err) => {
    if (await sandbox.diskLimitHit()) return true;
    throw err;
  };
}
