import { chooseGpus, formatGpuLabel, losesRace, parseGpuLabel } from '../../../src/sandbox/gpuChoice';

const exclusive = (count: number | 'all') => ({ count, share: false });

describe('which GPUs an instance gets', () => {
  it('the lowest free ones, or all of them', () => {
    expect(chooseGpus([0, 1, 2, 3], [], 'a', exclusive(1))).toEqual([0]);
    expect(chooseGpus([3, 1, 0, 2], [{ instanceId: 'b', gpus: [0, 2] }], 'a', exclusive(2))).toEqual([1, 3]);
    expect(chooseGpus([0, 1], [], 'a', exclusive('all'))).toEqual([0, 1]);
  });

  it('none while another instance holds what it needs', () => {
    expect(chooseGpus([0, 1], [{ instanceId: 'b', gpus: [1] }], 'a', exclusive('all'))).toBeNull();
    expect(chooseGpus([0, 1], [{ instanceId: 'b', gpus: [0] }, { instanceId: 'c', gpus: [1] }], 'a', exclusive(1))).toBeNull();
  });

  it("never waits on the instance's own containers (its session and a probe may overlap)", () => {
    expect(chooseGpus([0, 1], [{ instanceId: 'a', gpus: [0, 1] }], 'a', exclusive('all'))).toEqual([0, 1]);
  });

  it('shares when the study says so', () => {
    expect(chooseGpus([0, 1], [{ instanceId: 'b', gpus: [0, 1] }], 'a', { count: 'all', share: true })).toEqual([0, 1]);
    expect(chooseGpus([0, 1], [{ instanceId: 'b', gpus: [0, 1] }], 'a', { count: 1, share: true })).toEqual([0]);
  });

  it('refuses what can never fit', () => {
    expect(() => chooseGpus([0], [], 'a', exclusive(2))).toThrow('2 GPUs asked, and this worker has 1');
    expect(() => chooseGpus([], [], 'a', exclusive('all'))).toThrow('this worker has 0');
    expect(() => chooseGpus([0], [], 'a', exclusive(0))).toThrow('not a request');
  });
});

describe('the GPU label', () => {
  it('round-trips, and ignores what is no index', () => {
    expect(parseGpuLabel(formatGpuLabel([0, 3]))).toEqual([0, 3]);
    expect(parseGpuLabel(undefined)).toEqual([]);
    expect(parseGpuLabel('1, x, -2, 4')).toEqual([1, 4]);
  });
});

describe('two instances that took the same GPU at once', () => {
  const c = (name: string, instanceId: string, created: number, gpus: number[]) => ({ name, instanceId, created, gpus });
  it('the later created gives them back; a tie goes by name', () => {
    expect(losesRace(c('x', 'a', 2, [0]), [c('y', 'b', 1, [0])])).toBe(true);
    expect(losesRace(c('x', 'a', 1, [0]), [c('y', 'b', 2, [0])])).toBe(false);
    expect(losesRace(c('y', 'a', 1, [0]), [c('x', 'b', 1, [0])])).toBe(true);
    expect(losesRace(c('x', 'a', 1, [0]), [c('y', 'b', 1, [0])])).toBe(false);
  });
  it('no race without a common GPU or with its own containers', () => {
    expect(losesRace(c('x', 'a', 2, [0]), [c('y', 'b', 1, [1])])).toBe(false);
    expect(losesRace(c('x', 'a', 2, [0]), [c('y', 'a', 1, [0])])).toBe(false);
  });
});
