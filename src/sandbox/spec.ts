import type { GpuRequest } from './gpuChoice';
import { resolveLimits, SANDBOX_LIMIT_BOUNDS, type SandboxLimits, type SandboxLimitsInput } from '../domain/sandboxLimits';
import { CACHE_BINDS } from '../infra/caches';
import { SANDBOX_LABELS } from './names';

/**
 * When the shared download caches are writable: `install-only` (the environment gap protocol: during
 * its install steps, remounted read-only by sealForRun before the program runs), `read-only` (never:
 * an agent's session, a setup script, a probe), `none` (not mounted).
 */
export type CacheMode = 'install-only' | 'read-only' | 'none';

/**
 * `sandbox`: the firewalled network of src/infra/sandboxNetwork.ts; `bridge`: Docker's default bridge,
 * unrestricted; `none`: loopback only (an agent whose ways out are envgap's relays on unix sockets).
 */
export type NetworkChoice = 'sandbox' | 'bridge' | 'none';

export type DiskFullPolicy = 'kill' | 'refuse';

/** Everything a sandbox is opened from. `L` may carry more than the container's limits (the gap protocol's time limits ride along). */
export interface SandboxSpec<L extends SandboxLimitsInput = SandboxLimits> {
  image: string;
  /** Unique per attempt, derived from the instance id (sandboxIdentity). */
  name: string;
  /** sandboxLabels(...): at least the instance label, which `envgap cleanup` reads. */
  labels: Record<string, string>;
  limits: L;
  network: NetworkChoice;
  /** The shared cache volumes (`volume:/path`) and when they are writable. */
  caches: { binds: readonly string[]; mode: CacheMode };
  /**
   * GPUs by Docker device requests: `true` is every GPU of the worker, held by this instance alone; a
   * request says how many and whether the study shares them (src/sandbox/gpuLeases.ts).
   */
  gpus?: boolean | GpuRequest;
  env?: readonly string[];
  /** Other binds (`source:/path[:ro]`); a shared cache volume is refused here (it goes in `caches`). */
  binds?: readonly string[];
  /** Default /work. */
  workdir?: string;
  /** CAP_SYS_PTRACE, for strace -f inside. */
  ptrace?: boolean;
  /**
   * At a full disk on the layer file system writes fail (ENOSPC) whatever this says. `kill` (default)
   * also kills what keeps on at the limit for about 6 s (a program ignoring its write errors: the gap
   * protocol's run); `refuse` leaves that to the step's time limit (a session's later steps, even its
   * end, must still run on a disk its agent filled). Under the watchdog, past the limit is always killed.
   */
  onDiskFull?: DiskFullPolicy;
  /** Removes the container when it fires (an activity's cancellation). */
  signal?: AbortSignal;
}

/** What a later activity needs to re-attach with the same protections (the `envgap.sandbox` label). */
export interface StoredSpec {
  limits: SandboxLimits;
  caches: { mode: CacheMode; targets: string[] };
  network: { name: string; policy: string };
  gpus: boolean;
  /** The GPU indexes it was given (absent: none, or a sandbox from before leases). */
  gpuIds?: number[];
  onDiskFull: DiskFullPolicy;
}

const NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,252}$/;
const ENV = /^[A-Za-z_][A-Za-z0-9_]*=/;
const SHARED_CACHE_VOLUMES = CACHE_BINDS.map((b) => b.split(':')[0]!);

/** A bind's parts, or null where it is not `source:/absolute/path[:mode]`. */
export function parseBind(bind: string): { source: string; target: string; mode: string | null } | null {
  const parts = bind.split(':');
  if (parts.length < 2 || parts.length > 3 || !parts[0] || !parts[1]?.startsWith('/')) return null;
  return { source: parts[0], target: parts[1], mode: parts[2] ?? null };
}

/** Every problem of a spec, each naming its field; empty where the spec can be opened. */
export function specProblems(spec: SandboxSpec<SandboxLimitsInput>): string[] {
  const problems: string[] = [];
  if (!NAME.test(spec.name)) problems.push(`name: "${spec.name}" is not a Docker container name (letters, digits, "_", "." or "-", at most 253)`);
  if (!spec.image.trim()) problems.push('image: empty');
  if (!spec.labels[SANDBOX_LABELS.instance]) problems.push(`labels: ${SANDBOX_LABELS.instance} is missing (envgap cleanup finds containers by it)`);
  const limits = resolveLimits(spec.limits);
  for (const [field, { min, max }] of Object.entries(SANDBOX_LIMIT_BOUNDS)) {
    const v = limits[field as keyof SandboxLimits];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) problems.push(`limits.${field}: ${v} is outside ${min}..${max}`);
    else if (field !== 'cpus' && !Number.isInteger(v)) problems.push(`limits.${field}: ${v} is not a whole number`);
  }
  if (limits.shm_mb > limits.memory_mb) problems.push(`limits.shm_mb: ${limits.shm_mb} MiB is more than memory_mb (${limits.memory_mb} MiB), which /dev/shm counts against`);
  if (spec.caches.mode === 'none' && spec.caches.binds.length > 0) problems.push('caches: binds given with mode none');
  spec.caches.binds.forEach((b, i) => {
    const p = parseBind(b);
    if (!p) problems.push(`caches.binds[${i}]: "${b}" is not volume:/path`);
    else if (p.mode !== null) problems.push(`caches.binds[${i}]: "${b}" carries a mode; caches.mode decides when it is writable`);
  });
  (spec.binds ?? []).forEach((b, i) => {
    const p = parseBind(b);
    if (!p) problems.push(`binds[${i}]: "${b}" is not source:/path[:mode]`);
    else if (p.mode !== null && p.mode !== 'ro' && p.mode !== 'rw') problems.push(`binds[${i}]: mode "${p.mode}" is not ro or rw`);
    else if (SHARED_CACHE_VOLUMES.includes(p.source) && p.mode !== 'ro') problems.push(`binds[${i}]: the shared cache ${p.source} would be writable; give it in caches`);
  });
  (spec.env ?? []).forEach((e, i) => {
    if (!ENV.test(e)) problems.push(`env[${i}]: "${e.split('=')[0]}" is not NAME=value`);
  });
  if (spec.workdir !== undefined && !spec.workdir.startsWith('/')) problems.push(`workdir: "${spec.workdir}" is not an absolute path`);
  return problems;
}

export class SandboxSpecError extends Error {
  override name = 'SandboxSpecError';
  constructor(readonly problems: string[]) {
    super(`sandbox spec refused: ${problems.join('; ')}`);
  }
}

/** The spec's container limits with every field, or SandboxSpecError naming each problem. */
export function checkSpec(spec: SandboxSpec<SandboxLimitsInput>): SandboxLimits {
  const problems = specProblems(spec);
  if (problems.length > 0) throw new SandboxSpecError(problems);
  return resolveLimits(spec.limits);
}
