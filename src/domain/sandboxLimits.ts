/**
 * What bounds every container of every protocol (src/sandbox): the same names, defaults and caps in
 * every study file's `limits:` (docs/ecosystems.md, "Sandbox"). Pure data, imported by the workflows
 * as types only.
 */
export interface SandboxLimits {
  memory_mb: number;
  cpus: number;
  /** Processes and threads of the whole container (the cgroup's pids.max). */
  pids: number;
  /** What the container may write outside its volumes, in MiB (its writable layer). */
  disk_mb: number;
  /** /dev/shm, in MiB (a tmpfs; its pages count against memory_mb). */
  shm_mb: number;
}

/** Limits as older inputs carry them: disk_mb and shm_mb came later. */
export type SandboxLimitsInput = Pick<SandboxLimits, 'memory_mb' | 'cpus' | 'pids'> & Partial<Pick<SandboxLimits, 'disk_mb' | 'shm_mb'>>;

export const DEFAULT_DISK_MB = 10240;
/** Docker's own default for /dev/shm. */
export const DEFAULT_SHM_MB = 64;
export const DEFAULT_PIDS = 1024;

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { memory_mb: 4096, cpus: 2, pids: DEFAULT_PIDS, disk_mb: DEFAULT_DISK_MB, shm_mb: DEFAULT_SHM_MB };

/**
 * Where a protocol's defaults differ. A readiness session sets up an ML stack: torch with CUDA is some
 * 6 GB installed, pip holds its downloads (3 GB) until it has installed them all, and its cache is the
 * sandbox's own, under disk_mb.
 */
export const PROTOCOL_LIMIT_DEFAULTS = {
  envgap: DEFAULT_SANDBOX_LIMITS,
  readme: DEFAULT_SANDBOX_LIMITS,
  // /dev/shm as upstream gives its agent and probe containers (16 GiB, for NCCL and DataLoader workers),
  // within the container's memory (its pages count against it): a study file's default is the lesser.
  readiness: { ...DEFAULT_SANDBOX_LIMITS, memory_mb: 8192, disk_mb: 32768, shm_mb: 16384 },
} as const satisfies Record<string, SandboxLimits>;

/** The least and most a study file may ask, per field (the same in every protocol). */
export const SANDBOX_LIMIT_BOUNDS = {
  memory_mb: { min: 64, max: 131_072 },
  cpus: { min: 0.01, max: 64 },
  pids: { min: 16, max: 32_768 },
  disk_mb: { min: 256, max: 1_048_576 },
  shm_mb: { min: 1, max: 65_536 },
} as const;

/** Every field, those an older input lacks at their defaults. */
export function resolveLimits(l: SandboxLimitsInput): SandboxLimits {
  return { memory_mb: l.memory_mb, cpus: l.cpus, pids: l.pids, disk_mb: l.disk_mb ?? DEFAULT_DISK_MB, shm_mb: l.shm_mb ?? DEFAULT_SHM_MB };
}

/**
 * The limits of a readiness or README instance: its `limits` where the study file gave them, else
 * (an input from before they were carried) its memory and CPUs with every other limit at its
 * protocol's default.
 */
export function instanceLimits(input: { limits?: SandboxLimitsInput; memoryMb: number; cpus: number }, defaults: SandboxLimits = DEFAULT_SANDBOX_LIMITS): SandboxLimits {
  return resolveLimits(input.limits ?? { ...defaults, memory_mb: input.memoryMb, cpus: input.cpus, shm_mb: Math.min(defaults.shm_mb, input.memoryMb) });
}
