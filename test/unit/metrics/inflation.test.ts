import { inflationRatios, inflationSummary } from '../../../src/metrics/inflation';
import { failed, instances, record } from './records';

describe('M2 inflation', () => {
  it('rho = n2 / n1 from the list sizes', () => {
    const group = instances(record({ declared: ['pandas'], installed: ['pandas', 'numpy', 'six', 'pytz', 'tzdata', 'python-dateutil'] }));
    expect(inflationRatios(group)).toEqual([6]);
  });

  it('uses the per-run counts when the records carry them', () => {
    const group = instances(record({ declared: ['a', 'b'], installed: [], declared_count: 2, installed_count: 14 }));
    expect(inflationRatios(group)).toEqual([7]);
  });

  it('falls back to the list when a count is null', () => {
    const group = instances(record({ declared: ['a'], installed: ['a', 'b'], declared_count: null, installed_count: null }));
    expect(inflationRatios(group)).toEqual([2]);
  });

  it('leaves out failures, n1 = 0 and unknown n2', () => {
    const group = instances(
      failed({ task: 'p_01', declared: ['a'], installed: ['a', 'b'] }),
      record({ task: 'p_02', declared: [], installed: ['x'] }),
      record({ task: 'p_03', declared: ['a'], installed: null }),
      record({ task: 'p_04', declared: ['a', 'b'], installed: ['a', 'b', 'c'] }),
    );
    expect(inflationSummary(group)).toEqual({ rho_n: 1, rho_mean: 1.5, rho_median: 1.5 });
  });

  it('mean and median over the instances; null for none', () => {
    const group = instances(
      record({ task: 'p_01', declared: ['a'], installed: ['a'] }),
      record({ task: 'p_02', declared: ['a'], installed: ['a', 'b'] }),
      record({ task: 'p_03', declared: ['a'], installed: ['a', 'b', 'c', 'd', 'e', 'f'] }),
    );
    expect(inflationSummary(group)).toEqual({ rho_n: 3, rho_mean: 3, rho_median: 2 });
    expect(inflationSummary([])).toEqual({ rho_n: 0, rho_mean: null, rho_median: null });
  });
});
