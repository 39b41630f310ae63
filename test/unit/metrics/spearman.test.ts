import { pearson, ranks, spearman } from '../../../src/metrics/spearman';

describe('spearman', () => {
  it('ranks ties by the mean of the ranks they span', () => {
    expect(ranks([10, 20, 20, 30])).toEqual([1, 2.5, 2.5, 4]);
    expect(ranks([3, 1, 3, 3])).toEqual([3, 1, 3, 3]);
    expect(ranks([])).toEqual([]);
  });

  it('matches scipy.stats.spearmanr on its documented example', () => {
    const r = spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]);
    expect(r.n).toBe(5);
    expect(r.rho).toBeCloseTo(0.8207826816681233, 14);
    expect(r.p).toBeCloseTo(0.08858700531354381, 12);
  });

  it('handles a binary variable with many ties', () => {
    const r = spearman([0, 0, 1, 2, 3, 5], [1, 1, 1, 0, 1, 0]);
    expect(r.rho).toBeCloseTo(-0.6301260378126043, 12);
    // with 4 degrees of freedom, p = I_y(2, 1/2) = 1 - sqrt(1 - y) (1 + y / 2), y = 4 / (4 + t^2)
    const t = r.rho! * Math.sqrt(4 / (1 - r.rho! ** 2));
    const y = 4 / (4 + t * t);
    expect(r.p).toBeCloseTo(1 - Math.sqrt(1 - y) * (1 + y / 2), 13);
  });

  it('perfect monotone relations have p = 0; constants have no correlation', () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 40])).toEqual({ n: 4, rho: 1, p: 0 });
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toEqual({ n: 4, rho: -1, p: 0 });
    expect(spearman([1, 2, 3], [1, 1, 1])).toEqual({ n: 3, rho: null, p: null });
    expect(spearman([], [])).toEqual({ n: 0, rho: null, p: null });
    expect(spearman([1, 2], [2, 1]).p).toBeNull();
    expect(pearson([1], [2])).toBeNull();
  });

  it('rejects vectors of different lengths', () => {
    expect(() => spearman([1, 2], [1])).toThrow(/2 x values but 1 y values/);
  });
});
