import type { Instance } from './instances';
import type { RepairDepthRow, SuccessRates } from './report';
import { countWhere, share } from './stats';

/** M1: first-attempt and final success, and the share of first-attempt failures repaired in the end. */
export function successRates(instances: readonly Instance[]): SuccessRates {
  const n = instances.length;
  const successes = countWhere(instances, (i) => i.success);
  const failedFirst = instances.filter((i) => !i.firstAttemptSuccess);
  return {
    n,
    successes,
    first_attempt_failures: failedFirst.length,
    sr0: share(n - failedFirst.length, n),
    final_sr: share(successes, n),
    repaired_share: share(countWhere(failedFirst, (i) => i.success), failedFirst.length),
  };
}

type DepthCounts = Omit<RepairDepthRow, 'agent' | 'language'>;

/** M1 repair-depth buckets: first attempt, 1-3, 4-7, 8-10 (and beyond, should a budget allow it), failed. */
export function repairDepthCounts(instances: readonly Instance[]): DepthCounts {
  const counts: DepthCounts = {
    first_attempt: 0,
    depth_1_3: 0,
    depth_4_7: 0,
    depth_8_10: 0,
    depth_over_10: 0,
    depth_unknown: 0,
    failed: 0,
  };
  for (const i of instances) {
    if (!i.success) counts.failed += 1;
    else if (i.firstAttemptSuccess || i.repairDepth === 0) counts.first_attempt += 1;
    else if (i.repairDepth === null) counts.depth_unknown += 1;
    else if (i.repairDepth <= 3) counts.depth_1_3 += 1;
    else if (i.repairDepth <= 7) counts.depth_4_7 += 1;
    else if (i.repairDepth <= 10) counts.depth_8_10 += 1;
    else counts.depth_over_10 += 1;
  }
  return counts;
}
