import { MachineBudget, machineCapacity } from '../../../src/infra/machineBudget';

const settle = () => new Promise((r) => setImmediate(r));

/** A reservation and whether it has been admitted yet. */
function track(budget: MachineBudget, cpus: number, memoryMb: number, signal?: AbortSignal) {
  const t = { admitted: false, release: (): void => undefined, rejected: null as unknown };
  budget.reserve({ cpus, memoryMb }, signal).then(
    (release) => {
      t.admitted = true;
      t.release = release;
    },
    (err) => (t.rejected = err),
  );
  return t;
}

describe('MachineBudget', () => {
  test('admits containers while their CPUs fit, whichever study they come from, and the next one on a release', async () => {
    const budget = new MachineBudget({ cpus: 2, memoryMb: 8192 });
    const a = track(budget, 1, 1024);
    const b = track(budget, 1, 1024);
    const c = track(budget, 1, 1024);
    await settle();
    expect([a.admitted, b.admitted, c.admitted]).toEqual([true, true, false]);
    expect(budget.state()).toMatchObject({ reserved: { cpus: 2, memoryMb: 2048 }, running: 2, waiting: 1 });
    a.release();
    await settle();
    expect(c.admitted).toBe(true);
    expect(budget.state()).toMatchObject({ reserved: { cpus: 2, memoryMb: 2048 }, running: 2, waiting: 0 });
  });

  test('memory limits admission as CPUs do', async () => {
    const budget = new MachineBudget({ cpus: 16, memoryMb: 4096 });
    const a = track(budget, 1, 3000);
    const b = track(budget, 1, 2000);
    await settle();
    expect([a.admitted, b.admitted]).toEqual([true, false]);
    a.release();
    await settle();
    expect(b.admitted).toBe(true);
  });

  test('admits in arrival order: a large container is not starved by smaller ones behind it', async () => {
    const budget = new MachineBudget({ cpus: 2, memoryMb: 8192 });
    const small = track(budget, 1, 512);
    const large = track(budget, 2, 512);
    const later = track(budget, 1, 512);
    await settle();
    expect([small.admitted, large.admitted, later.admitted]).toEqual([true, false, false]);
    small.release();
    await settle();
    expect([large.admitted, later.admitted]).toEqual([true, false]);
    large.release();
    await settle();
    expect(later.admitted).toBe(true);
  });

  test('a container asking more than the whole machine runs alone instead of never', async () => {
    const budget = new MachineBudget({ cpus: 2, memoryMb: 2048 });
    const huge = track(budget, 4, 16384);
    const next = track(budget, 0.5, 256);
    await settle();
    expect([huge.admitted, next.admitted]).toEqual([true, false]);
    huge.release();
    await settle();
    expect(next.admitted).toBe(true);
  });

  test('fractional CPU shares add up exactly enough', async () => {
    const budget = new MachineBudget({ cpus: 0.3, memoryMb: 4096 });
    const t = [track(budget, 0.1, 1), track(budget, 0.1, 1), track(budget, 0.1, 1), track(budget, 0.1, 1)];
    await settle();
    expect(t.map((x) => x.admitted)).toEqual([true, true, true, false]);
  });

  test('a release is idempotent, and an aborted wait reserves nothing and lets the queue move', async () => {
    const budget = new MachineBudget({ cpus: 1, memoryMb: 1024 });
    const a = track(budget, 1, 512);
    const abort = new AbortController();
    const cancelled = track(budget, 1, 512, abort.signal);
    const c = track(budget, 1, 512);
    await settle();
    abort.abort(new Error('instance cancelled'));
    await settle();
    expect(cancelled.rejected).toEqual(new Error('instance cancelled'));
    a.release();
    a.release();
    await settle();
    expect(c.admitted).toBe(true);
    expect(budget.state()).toMatchObject({ reserved: { cpus: 1, memoryMb: 512 }, running: 1, waiting: 0 });
  });

  test('`with` releases when the work throws', async () => {
    const budget = new MachineBudget({ cpus: 1, memoryMb: 1024 });
    await expect(budget.with({ cpus: 1, memoryMb: 1 }, undefined, async () => Promise.reject(new Error('container failed')))).rejects.toThrow('container failed');
    expect(budget.state()).toMatchObject({ reserved: { cpus: 0, memoryMb: 0 }, running: 0 });
  });

  test('refuses a capacity that is not positive', () => {
    expect(() => new MachineBudget({ cpus: 0, memoryMb: 1024 })).toThrow('capacity must be positive');
  });
});

describe('machineCapacity', () => {
  const machine = { cpus: 8, memoryMb: 32768 };

  test("is the machine's CPUs and its memory less a reserve for the harness", () => {
    expect(machineCapacity({}, machine)).toEqual({ cpus: 8, memoryMb: 31744 });
  });

  test('ENVGAP_WORKER_CPUS and ENVGAP_WORKER_MEMORY_MB override it', () => {
    expect(machineCapacity({ ENVGAP_WORKER_CPUS: '1.5', ENVGAP_WORKER_MEMORY_MB: '4096' }, machine)).toEqual({ cpus: 1.5, memoryMb: 4096 });
  });

  test('a bad value is an error that names the variable', () => {
    expect(() => machineCapacity({ ENVGAP_WORKER_CPUS: 'lots' }, machine)).toThrow('ENVGAP_WORKER_CPUS=lots: expected a positive number');
    expect(() => machineCapacity({ ENVGAP_WORKER_MEMORY_MB: '-1' }, machine)).toThrow('ENVGAP_WORKER_MEMORY_MB=-1');
  });
});
