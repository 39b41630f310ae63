import { z } from 'zod';
import { DEFAULT_SANDBOX_LIMITS, SANDBOX_LIMIT_BOUNDS, type SandboxLimits } from '../domain/sandboxLimits';

const atMost = (n: number, what: string) => `at most ${n.toLocaleString('en-US')}${what}`;
const atLeast = (n: number, what: string) => `at least ${n.toLocaleString('en-US')}${what}`;
const B = SANDBOX_LIMIT_BOUNDS;

/** The most a study file may ask, per field. */
export const SANDBOX_LIMIT_CAPS = { memory_mb: B.memory_mb.max, cpus: B.cpus.max, pids: B.pids.max, disk_mb: B.disk_mb.max, shm_mb: B.shm_mb.max } as const;

/**
 * The sandbox's fields of a study file's `limits:`, the same names and bounds in every protocol, and
 * the same defaults but where a protocol's differ (PROTOCOL_LIMIT_DEFAULTS: a readiness session
 * installs torch).
 */
export function sandboxLimitFields(defaults: SandboxLimits = DEFAULT_SANDBOX_LIMITS) {
  return {
    memory_mb: z.number().int().min(B.memory_mb.min, atLeast(B.memory_mb.min, ' MiB')).max(B.memory_mb.max, atMost(B.memory_mb.max, ' MiB (128 GiB)')).default(defaults.memory_mb),
    cpus: z.number().min(B.cpus.min, atLeast(B.cpus.min, ' CPUs')).max(B.cpus.max, atMost(B.cpus.max, ' CPUs')).default(defaults.cpus),
    pids: z.number().int().min(B.pids.min, atLeast(B.pids.min, ' processes')).max(B.pids.max, atMost(B.pids.max, ' processes')).default(defaults.pids),
    disk_mb: z.number().int().min(B.disk_mb.min, atLeast(B.disk_mb.min, ' MiB')).max(B.disk_mb.max, atMost(B.disk_mb.max, ' MiB (1 TiB)')).default(defaults.disk_mb),
    shm_mb: z.number().int().min(B.shm_mb.min, atLeast(B.shm_mb.min, ' MiB')).max(B.shm_mb.max, atMost(B.shm_mb.max, ' MiB (64 GiB)')).default(defaults.shm_mb),
  };
}

/** /dev/shm is memory: more of it than memory_mb is refused, at the shm_mb field. */
export function shmWithinMemory(l: { memory_mb?: unknown; shm_mb?: unknown } | undefined, ctx: z.RefinementCtx, at: (string | number)[] = ['limits']): void {
  if (typeof l?.memory_mb === 'number' && typeof l.shm_mb === 'number' && l.shm_mb > l.memory_mb) {
    ctx.addIssue({ code: 'custom', path: [...at, 'shm_mb'], message: `${l.shm_mb} MiB of /dev/shm is more than memory_mb (${l.memory_mb} MiB), which it counts against` });
  }
}

/**
 * A protocol's `limits:` object (readiness, README): the sandbox's fields only. /dev/shm left out is
 * the protocol's default bounded by memory_mb (readiness: upstream's 16 GiB, within the container's memory).
 */
export function sandboxLimitsObject(defaults: SandboxLimits) {
  const fields = sandboxLimitFields(defaults);
  const withShm = (raw: unknown) => {
    if (raw === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw) || 'shm_mb' in raw) return raw;
    const memory = (raw as { memory_mb?: unknown }).memory_mb;
    return { ...raw, shm_mb: Math.min(defaults.shm_mb, typeof memory === 'number' && memory >= 1 ? Math.floor(memory) : defaults.memory_mb) };
  };
  return z.preprocess(
    (raw) => withShm(raw ?? {}),
    z.strictObject(fields).superRefine((l, ctx) => shmWithinMemory(l, ctx, [])),
  );
}
