import { instanceRates, mismatchSummary } from '../../../src/metrics/rates';
import { failed, instance, instances, record } from './records';

describe('M3 phantom, hidden and bloat rates', () => {
  it('phantom |D1 \\ D3| / n1, hidden |D3 \\ D1| / n3, bloat |D2 \\ D3| / n2', () => {
    const i = instance({ declared: ['a', 'b', 'c', 'd'], installed: ['a', 'b', 'x', 'y', 'z'], traced: ['a', 'x', 'q'] });
    expect(instanceRates(i)).toEqual({ phantom: 3 / 4, hidden: 2 / 3, bloat: 3 / 5 });
  });

  it('each rate is 0 when its denominator is 0', () => {
    expect(instanceRates(instance({ declared: [], installed: [], traced: [] }))).toEqual({ phantom: 0, hidden: 0, bloat: 0 });
    expect(instanceRates(instance({ declared: [], installed: ['a'], traced: ['a'] }))).toEqual({ phantom: 0, hidden: 1, bloat: 0 });
    expect(instanceRates(instance({ declared: ['a'], installed: ['a'], traced: [] }))).toEqual({ phantom: 1, hidden: 0, bloat: 1 });
  });

  it('needs a successful instance with declared and traced sets; bloat needs the installed set', () => {
    expect(instanceRates(instances(failed({ declared: ['a'], traced: ['a'] }))[0])).toBeNull();
    expect(instanceRates(instance({ traced: null }))).toBeNull();
    expect(instanceRates(instance({ declared: null }))).toBeNull();
    expect(instanceRates(instance({ declared: ['a'], installed: null, traced: ['b'] }))).toEqual({ phantom: 1, hidden: 1, bloat: null });
  });

  it('averages over successful instances, zero-denominator cases included as 0', () => {
    const group = instances(
      record({ task: 'p_01', declared: ['a', 'b'], installed: ['a', 'b'], traced: ['a'] }),
      record({ task: 'p_02', declared: [], installed: [], traced: [] }),
      record({ task: 'p_03', declared: ['a'], installed: null, traced: ['a'] }),
      failed({ task: 'p_04', declared: ['z'] }),
    );
    expect(mismatchSummary(group)).toEqual({ rates_n: 3, phantom: 0.5 / 3, hidden: 0, bloat: 0.25 });
  });
});
