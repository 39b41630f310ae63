/**
 * Failures at the container's resource limits: a step that failed because the kernel refused or killed
 * it at the memory or pids limit, told from the container's cgroup counters, read before and after the
 * step (src/infra/docker.ts). Pure: the counters come in, a class and a note for Repair go out. These
 * are still the agent's failures (its program asked for more than the container gives), kept apart
 * from ordinary Runtime errors in the record. DiskLimit is produced where the disk limit is enforced.
 */

export const RESOURCE_LIMIT_CLASSES = ['MemoryLimit', 'PidsLimit', 'DiskLimit'] as const;
export type ResourceLimitClass = (typeof RESOURCE_LIMIT_CLASSES)[number];

/**
 * The container's cgroup counters at one moment; null where this kernel or cgroup version lacks one.
 * cgroup v1: memory.oom_control (oom_kill), memory.failcnt, memory.max_usage_in_bytes,
 * memory.limit_in_bytes, pids.events (max). cgroup v2: memory.events (oom_kill; max as the fail count),
 * memory.peak, memory.max, pids.events (max).
 */
export interface CgroupCounters {
  /** Processes the kernel killed for memory in the container's cgroup. */
  oomKills: number | null;
  /** Times memory usage hit the limit (v1 memory.failcnt, v2 memory.events max). */
  memoryFailcnt: number | null;
  /** The highest memory usage so far, in bytes (a high-water mark over the container's life). */
  memoryPeakBytes: number | null;
  memoryLimitBytes: number | null;
  /** Forks (and thread creations) refused at the pids limit. */
  pidsLimitHits: number | null;
}

export interface CounterSpan {
  before: CgroupCounters;
  after: CgroupCounters;
}

/** What a failed step shows: its exit, its output, the counters around it, and Docker's OOMKilled flag. */
export interface LimitEvidence {
  exitCode: number | null;
  timedOut: boolean;
  output: string;
  /** Null or absent where the counters could not be read (the step's wrapper did not report). */
  counters?: CounterSpan | null;
  /** Docker's State.OOMKilled (false on cgroup v1 with Docker 20.10 even when a process was killed). */
  dockerOomKilled?: boolean;
}

export interface LimitHit {
  errorClass: ResourceLimitClass;
  /** One line for the output handed to Repair: which limit the step hit. */
  note: string;
}

export interface LimitSizes {
  memory_mb: number;
  pids: number;
}

/** Peak usage this close to the limit counts as having reached it. */
const NEAR_LIMIT = 0.95;

// Fork and thread creation refused (EAGAIN), as programs report it: decisive only without counters.
// (A BlockingIOError counts only under a fork: a non-blocking socket raises the same.)
const FORK_REFUSED = [
  /fork: (?:retry: )?Resource temporarily unavailable/,
  /(?:fork|_fork_exec|spawn)\b[^\n]*\n(?:[^\n]*\n){0,3}BlockingIOError: \[Errno 11\] Resource temporarily unavailable/,
  /can't start new thread/,
  /unable to create (?:new )?native thread/,
  /pthread_create failed \(EAGAIN\)|pthread_create: Resource temporarily unavailable/,
  /Error: spawn \S+ EAGAIN|uv_thread_create/,
];

function rose(span: CounterSpan, key: 'oomKills' | 'memoryFailcnt' | 'pidsLimitHits'): boolean | null {
  const a = span.before[key];
  const b = span.after[key];
  return a === null || b === null ? null : b > a;
}

/** Whether the step's processes reached the memory limit: a kill for memory during the step, or a SIGKILL at a peak that reached the limit. */
function hitMemory(e: LimitEvidence): boolean {
  const span = e.counters ?? null;
  const killed = e.exitCode === 137 && !e.timedOut;
  if (span) {
    const oom = rose(span, 'oomKills');
    if (oom !== null) return oom || (killed && e.dockerOomKilled === true);
    // No oom_kill counter (kernels before 4.13): a SIGKILL after usage hit the limit during the step.
    if (killed && rose(span, 'memoryFailcnt')) return true;
    const { memoryPeakBytes: peak, memoryLimitBytes: limit } = span.after;
    const peakBefore = span.before.memoryPeakBytes;
    if (killed && peak !== null && limit !== null && peak >= NEAR_LIMIT * limit && (peakBefore === null || peakBefore < NEAR_LIMIT * limit)) return true;
  }
  return killed && e.dockerOomKilled === true;
}

function hitPids(e: LimitEvidence): boolean {
  const hits = e.counters ? rose(e.counters, 'pidsLimitHits') : null;
  if (hits !== null) return hits;
  return FORK_REFUSED.some((p) => p.test(e.output));
}

/**
 * The resource limit a failed step hit, if any. Memory: a process of the container was killed for
 * memory while the step ran (the cgroup's oom_kill count rose; where the kernel has no such count,
 * exit 137 after usage reached the limit), or Docker says OOMKilled with exit 137. Pids: forks were
 * refused at the pids limit while the step ran (pids.events max rose; without counters, the fork
 * failures a program prints). A limit hit outranks a timeout: a fork bomb runs until it is killed.
 * Memory is asked first, as a kill ends what it hits.
 */
export function resourceLimitHit(e: LimitEvidence, limits: LimitSizes, who = 'the program'): LimitHit | null {
  if (hitMemory(e)) {
    return { errorClass: 'MemoryLimit', note: `envgap: ${who} hit the container's memory limit (${limits.memory_mb} MiB); the kernel killed it for memory (OOM)` };
  }
  if (hitPids(e)) {
    return { errorClass: 'PidsLimit', note: `envgap: ${who} hit the container's process limit (${limits.pids} processes and threads); forks were refused` };
  }
  return null;
}

/** Whether an error class is a resource-limit failure of the agent's program (the record keeps these apart from Runtime). */
export function isResourceLimitClass(c: string | null): c is ResourceLimitClass {
  return (RESOURCE_LIMIT_CLASSES as readonly string[]).includes(c ?? '');
}
