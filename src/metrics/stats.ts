/** Arithmetic mean; null for no values. */
export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Median (mean of the two middle values for an even count); null for no values. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** part / whole; null when whole is 0 (undefined rather than a made-up 0 or 1). */
export function share(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole;
}

export function countWhere<T>(items: readonly T[], test: (item: T) => boolean): number {
  let n = 0;
  for (const item of items) if (test(item)) n += 1;
  return n;
}
