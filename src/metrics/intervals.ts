import type { Rate } from './report';
import { mulberry32 } from './synthetic/prng';

/** A 95% interval of a rate, beside it as `<field>_ci`. */
export interface Interval {
  low: number;
  high: number;
}

const Z = 1.959963984540054;

/** The Wilson score interval of k successes in n at 95%; null where n is 0. */
export function wilson(k: number, n: number): Interval | null {
  if (n === 0) return null;
  const p = k / n;
  const z2 = Z * Z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  // At k = 0 and k = n the ends are exactly 0 and 1; rounding would leave them a hair inside.
  return { low: k === 0 ? 0 : Math.max(0, centre - half), high: k === n ? 1 : Math.min(1, centre + half) };
}

/** Wilson for a rate known as a share of n (the count recovered from the rate). */
export function wilsonOfShare(rate: Rate, n: number): Interval | null {
  return rate === null ? null : wilson(Math.round(rate * n), n);
}

export interface BootstrapOptions {
  seed?: number;
  resamples?: number;
}

export const BOOTSTRAP_SEED = 20261201;
export const BOOTSTRAP_RESAMPLES = 1000;

/** The value at quantile q of sorted xs, linearly interpolated. */
function quantile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/**
 * Percentile bootstrap over tasks of means over instances: the tasks of the group are drawn with
 * replacement (a task brings all its instances), each field's mean over the instances where it is
 * defined is computed on each resample, and its 2.5th and 97.5th percentiles are its interval. Each
 * instance's values are computed once and summed per task, so a resample costs one pass over the tasks.
 * A field whose mean over the group is undefined, or that no resample defines, gets null.
 */
export function bootstrapMeansOverTasks<T extends { task: string }, F extends string>(
  items: readonly T[],
  fields: readonly F[],
  valuesOf: (item: T) => Partial<Record<F, number | null>> | null,
  o: BootstrapOptions = {},
): Record<F, Interval | null> {
  const perTask = new Map<string, { sum: Float64Array; count: Float64Array }>();
  for (const item of items) {
    const v = valuesOf(item);
    let t = perTask.get(item.task);
    if (!t) perTask.set(item.task, (t = { sum: new Float64Array(fields.length), count: new Float64Array(fields.length) }));
    if (!v) continue;
    fields.forEach((f, j) => {
      const x = v[f];
      if (x === null || x === undefined) return;
      t.sum[j] += x;
      t.count[j] += 1;
    });
  }
  const tasks = [...perTask.keys()].sort().map((k) => perTask.get(k)!);
  const defined = fields.map((_, j) => tasks.some((t) => t.count[j] > 0));
  const random = mulberry32(o.seed ?? BOOTSTRAP_SEED);
  const draws = fields.map(() => [] as number[]);
  const resamples = tasks.length === 0 ? 0 : (o.resamples ?? BOOTSTRAP_RESAMPLES);
  const sum = new Float64Array(fields.length);
  const count = new Float64Array(fields.length);
  for (let b = 0; b < resamples; b++) {
    sum.fill(0);
    count.fill(0);
    for (let i = 0; i < tasks.length; i++) {
      const t = tasks[Math.floor(random() * tasks.length)];
      for (let j = 0; j < fields.length; j++) {
        sum[j] += t.sum[j];
        count[j] += t.count[j];
      }
    }
    for (let j = 0; j < fields.length; j++) if (count[j] > 0) draws[j].push(sum[j] / count[j]);
  }
  return Object.fromEntries(
    fields.map((f, j) => {
      const xs = draws[j].sort((a, b) => a - b);
      return [f, !defined[j] || xs.length === 0 ? null : { low: quantile(xs, 0.025), high: quantile(xs, 0.975) }];
    }),
  ) as Record<F, Interval | null>;
}
