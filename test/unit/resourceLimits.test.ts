import { resourceLimitHit, type CgroupCounters, type LimitEvidence } from '../../src/ecosystems/resourceLimits';

const LIMITS = { memory_mb: 256, pids: 64 };
const MiB = 1024 * 1024;

// As the exec wrapper reads them on cgroup v1 (Docker 20.10, kernel 6.x): oom_kill, failcnt, peak, limit, pids max hits.
const counters = (c: Partial<CgroupCounters> = {}): CgroupCounters => ({
  oomKills: 0,
  memoryFailcnt: 0,
  memoryPeakBytes: 20 * MiB,
  memoryLimitBytes: 256 * MiB,
  pidsLimitHits: 0,
  ...c,
});
const failed = (e: Partial<LimitEvidence>): LimitEvidence => ({ exitCode: 1, timedOut: false, output: '', ...e });

describe('resourceLimitHit', () => {
  it('a process killed for memory during the step is MemoryLimit, though Docker says OOMKilled=false (cgroup v1)', () => {
    const hit = resourceLimitHit(
      failed({ exitCode: 137, counters: { before: counters(), after: counters({ oomKills: 1, memoryPeakBytes: 256 * MiB }) }, dockerOomKilled: false }),
      LIMITS,
    );
    expect(hit).toEqual({ errorClass: 'MemoryLimit', note: expect.stringContaining("the program hit the container's memory limit (256 MiB)") });
  });

  it('a child killed for memory fails the step with its own exit (a compiler killed under make): MemoryLimit', () => {
    const hit = resourceLimitHit(failed({ exitCode: 2, output: 'c++: fatal error: Killed signal terminated program cc1plus\n', counters: { before: counters(), after: counters({ oomKills: 1 }) } }), LIMITS, 'the build step');
    expect(hit?.errorClass).toBe('MemoryLimit');
    expect(hit?.note).toMatch(/^envgap: the build step hit/);
  });

  it('an OOM kill before the step (the count did not rise) is not this step', () => {
    expect(resourceLimitHit(failed({ exitCode: 137, counters: { before: counters({ oomKills: 1 }), after: counters({ oomKills: 1 }) } }), LIMITS)).toBeNull();
  });

  it('without an oom_kill count: a SIGKILL after usage hit the limit during the step', () => {
    const noCount = { oomKills: null };
    const span = { before: counters(noCount), after: counters({ ...noCount, memoryFailcnt: 3 }) };
    expect(resourceLimitHit(failed({ exitCode: 137, counters: span }), LIMITS)?.errorClass).toBe('MemoryLimit');
    const peak = { before: counters(noCount), after: counters({ ...noCount, memoryPeakBytes: 255 * MiB }) };
    expect(resourceLimitHit(failed({ exitCode: 137, counters: peak }), LIMITS)?.errorClass).toBe('MemoryLimit');
    // The high-water mark was already at the limit before the step: it says nothing of this one.
    const stale = { before: counters({ ...noCount, memoryPeakBytes: 256 * MiB }), after: counters({ ...noCount, memoryPeakBytes: 256 * MiB }) };
    expect(resourceLimitHit(failed({ exitCode: 137, counters: stale }), LIMITS)).toBeNull();
  });

  it("Docker's OOMKilled with exit 137 counts where no counters came back", () => {
    expect(resourceLimitHit(failed({ exitCode: 137, dockerOomKilled: true }), LIMITS)?.errorClass).toBe('MemoryLimit');
    expect(resourceLimitHit(failed({ exitCode: 137 }), LIMITS)).toBeNull();
  });

  it('forks refused at the pids limit during the step are PidsLimit, also when the step then ran out of time', () => {
    const span = { before: counters(), after: counters({ pidsLimitHits: 1 }) };
    expect(resourceLimitHit(failed({ counters: span }), LIMITS)).toEqual({ errorClass: 'PidsLimit', note: expect.stringContaining("the program hit the container's process limit (64 processes and threads)") });
    expect(resourceLimitHit(failed({ exitCode: 124, timedOut: true, counters: span }), LIMITS)?.errorClass).toBe('PidsLimit');
  });

  it('the counters decide over the output: fork failures printed while no fork was refused are not a limit', () => {
    const output = 'bash: fork: Resource temporarily unavailable\n';
    expect(resourceLimitHit(failed({ output, counters: { before: counters(), after: counters() } }), LIMITS)).toBeNull();
    expect(resourceLimitHit(failed({ output }), LIMITS)?.errorClass).toBe('PidsLimit');
  });

  it('a memory kill is asked first when both limits were hit', () => {
    const span = { before: counters(), after: counters({ oomKills: 2, pidsLimitHits: 5 }) };
    expect(resourceLimitHit(failed({ exitCode: 137, counters: span }), LIMITS)?.errorClass).toBe('MemoryLimit');
  });

  it('an ordinary failure, and a timeout, hit no limit', () => {
    const span = { before: counters(), after: counters() };
    expect(resourceLimitHit(failed({ output: 'ZeroDivisionError: division by zero\n', counters: span }), LIMITS)).toBeNull();
    expect(resourceLimitHit(failed({ exitCode: 124, timedOut: true, counters: span }), LIMITS)).toBeNull();
    // A SIGKILL at the time limit is the timeout's, not memory's, even with a stale OOMKilled flag.
    expect(resourceLimitHit(failed({ exitCode: 137, timedOut: true, dockerOomKilled: true, counters: span }), LIMITS)).toBeNull();
  });
});
