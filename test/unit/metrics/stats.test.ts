import { countWhere, mean, median, share } from '../../../src/metrics/stats';

describe('mean, median, share', () => {
  it('are null where undefined', () => {
    expect(mean([])).toBeNull();
    expect(median([])).toBeNull();
    expect(share(0, 0)).toBeNull();
    expect(share(3, 0)).toBeNull();
  });

  it('compute the usual values', () => {
    expect(mean([1, 2, 6])).toBe(3);
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(share(1, 4)).toBe(0.25);
    expect(share(0, 4)).toBe(0);
    expect(countWhere([1, 2, 3, 4], (x) => x % 2 === 0)).toBe(2);
  });

  it('median does not reorder its input', () => {
    const xs = [3, 1, 2];
    median(xs);
    expect(xs).toEqual([3, 1, 2]);
  });
});
