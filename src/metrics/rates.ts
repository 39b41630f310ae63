import type { Instance } from './instances';
import { differenceSize } from './sets';
import { mean } from './stats';

export interface InstanceRates {
  phantom: number;
  hidden: number;
  /** null when the installed set is unknown */
  bloat: number | null;
}

const rateOrZero = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

/**
 * M3 for one successful instance: phantom |D1 \ D3| / n1, hidden |D3 \ D1| / n3, bloat |D2 \ D3| / n2,
 * each 0 when its denominator is 0. These are set operations, so n1, n2, n3 are the sets' sizes.
 * Null when the instance has no declared or traced set.
 */
export function instanceRates(i: Instance): InstanceRates | null {
  const { declared: d1, installed: d2, traced: d3 } = i;
  if (!i.success || d1 === null || d3 === null) return null;
  return {
    phantom: rateOrZero(differenceSize(d1, d3), d1.size),
    hidden: rateOrZero(differenceSize(d3, d1), d3.size),
    bloat: d2 === null ? null : rateOrZero(differenceSize(d2, d3), d2.size),
  };
}

/** M3 means over the successful instances. */
export function mismatchSummary(instances: readonly Instance[]) {
  const rates = instances.map(instanceRates).filter((r): r is InstanceRates => r !== null);
  const bloats = rates.map((r) => r.bloat).filter((b): b is number => b !== null);
  return {
    rates_n: rates.length,
    phantom: mean(rates.map((r) => r.phantom)),
    hidden: mean(rates.map((r) => r.hidden)),
    bloat: mean(bloats),
  };
}
