import type { ResearchEnvBenchRaw } from '../../domain/readinessUpstream';

/** C0 denominators by repository, keyed as upstream looks them up: trimmed and lower-cased. */
export type C0Totals = ReadonlyMap<string, number>;

export function c0Key(repo: string): string {
  return repo.trim().toLowerCase();
}

/** Upstream keeps only positive whole counts (a fractional one truncated). */
export function c0TotalsFrom(repos: Readonly<Record<string, number>>): C0Totals {
  const out = new Map<string, number>();
  for (const [repo, value] of Object.entries(repos)) {
    const n = Math.trunc(value);
    if (c0Key(repo) !== '' && Number.isFinite(n) && n > 0) out.set(c0Key(repo), n);
  }
  return out;
}

/** Upstream's c0_total_for_row: the table, else baseline_imports.json's total (above 0), else pyright's own, else 0. */
export function upstreamC0Total(repo: string, c0: ResearchEnvBenchRaw['c0'], totals: C0Totals): number {
  const ref = totals.get(c0Key(repo));
  if (ref !== undefined) return ref;
  if (c0.total_baseline !== null && c0.total_baseline > 0) return c0.total_baseline;
  return c0.total_reported || 0;
}
