import { repairDepthCounts, successRates } from '../../../src/metrics/success';
import { failed, instances, record, repaired } from './records';

describe('M1 success', () => {
  it('SR0, final SR and the repaired share of first-attempt failures', () => {
    const group = instances(
      record({ task: 'p_01' }),
      record({ task: 'p_02' }),
      repaired(2, { task: 'p_03' }),
      failed({ task: 'p_04' }),
    );
    expect(successRates(group)).toEqual({
      n: 4,
      successes: 3,
      first_attempt_failures: 2,
      sr0: 0.5,
      final_sr: 0.75,
      repaired_share: 0.5,
    });
  });

  it('repaired share is null when nothing failed at first, all rates null for no instances', () => {
    expect(successRates(instances(record())).repaired_share).toBeNull();
    expect(successRates([])).toEqual({ n: 0, successes: 0, first_attempt_failures: 0, sr0: null, final_sr: null, repaired_share: null });
  });

  it('buckets repair depth: first attempt, 1-3, 4-7, 8-10, beyond, unknown, failed', () => {
    const depths = [1, 3, 4, 7, 8, 10, 11];
    const group = instances(
      record({ task: 'first' }),
      ...depths.map((d) => repaired(d, { task: `d${d}` })),
      repaired(null, { task: 'unknown' }),
      failed({ task: 'failed' }),
    );
    expect(repairDepthCounts(group)).toEqual({
      first_attempt: 1,
      depth_1_3: 2,
      depth_4_7: 2,
      depth_8_10: 2,
      depth_over_10: 1,
      depth_unknown: 1,
      failed: 1,
    });
  });
});
