import { studentTTwoSidedP } from './incompleteBeta';

/** Ranks from 1, tied values sharing the mean of the ranks they span. */
export function ranks(values: readonly number[]): number[] {
  const order = values.map((_, i) => i).sort((a, b) => values[a] - values[b]);
  const out = new Array<number>(values.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && values[order[end + 1]] === values[order[start]]) end += 1;
    const rank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k += 1) out[order[k]] = rank;
    start = end + 1;
  }
  return out;
}

/** Pearson's r; null when either variable is constant (or there are fewer than two pairs). */
export function pearson(x: readonly number[], y: readonly number[]): number | null {
  const n = x.length;
  if (n < 2) return null;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i += 1) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i += 1) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  if (sxx === 0 || syy === 0) return null;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

export interface Correlation {
  n: number;
  rho: number | null;
  /** two-sided, from the t distribution with n - 2 degrees of freedom (as scipy.stats.spearmanr) */
  p: number | null;
}

/** Spearman's rank correlation (Pearson's r of the tie-averaged ranks) and its p-value. */
export function spearman(x: readonly number[], y: readonly number[]): Correlation {
  if (x.length !== y.length) throw new Error(`spearman: ${x.length} x values but ${y.length} y values`);
  const n = x.length;
  const rho = pearson(ranks(x), ranks(y));
  if (rho === null || n < 3) return { n, rho, p: null };
  if (Math.abs(rho) === 1) return { n, rho, p: 0 };
  const t = rho * Math.sqrt((n - 2) / (1 - rho * rho));
  return { n, rho, p: studentTTwoSidedP(t, n - 2) };
}
