import { z } from 'zod';

/** The limits a container reached, as the failure classes name them (src/ecosystems/resourceLimits.ts). */
export const LimitClass = z.enum(['MemoryLimit', 'PidsLimit', 'DiskLimit']);
export type LimitClass = z.infer<typeof LimitClass>;

/**
 * What confined a container, as recorded with a result of any protocol (docs/ecosystems.md,
 * "Sandbox"): its network and that network's policy, its limits, how its disk was bounded and when
 * the shared caches were writable. `read-only-during-run`: writable in the install steps only (the
 * environment gap protocol); `read-only`: never writable; `none`: not mounted.
 */
export const SandboxRecord = z.object({
  network: z.string(),
  policy: z.string(),
  memory_mb: z.number(),
  cpus: z.number(),
  pids: z.number().int(),
  disk_mb: z.number().int(),
  shm_mb: z.number().int(),
  /** `layer-fs`: a file system of disk_mb under the writable layer; `watchdog`: polled and killed past disk_mb. */
  disk: z.enum(['layer-fs', 'watchdog', 'none']),
  caches: z.enum(['read-only-during-run', 'read-only', 'none', 'writable']),
  gpus: z.boolean(),
  /** The worker's GPU indexes it was leased (absent: none, or recorded before leases). */
  gpu_ids: z.array(z.number().int()).optional(),
  /** The limits the container reached while it lived (where it was looked at: a session's end, a script's run). */
  limits_hit: z.array(LimitClass).optional(),
});
export type SandboxRecord = z.infer<typeof SandboxRecord>;
