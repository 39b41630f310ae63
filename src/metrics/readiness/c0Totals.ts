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
