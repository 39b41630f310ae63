import { languagesOf, type Instance } from './instances';
import type { FrequentPackageRow } from './report';
import { difference } from './sets';

function top(counts: Map<string, number>, limit: number): [string, number][] {
  return [...counts]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, limit);
}

function tally(counts: Map<string, number>, names: readonly string[]): void {
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
}

/**
 * The packages most often phantom (in D1 \ D3) and hidden (in D3 \ D1) over the successful primary
 * instances of each language; ties broken by name.
 */
export function frequentPackages(primary: readonly Instance[], limit: number): FrequentPackageRow[] {
  const rows: FrequentPackageRow[] = [];
  for (const language of languagesOf(primary)) {
    const phantom = new Map<string, number>();
    const hidden = new Map<string, number>();
    for (const i of primary) {
      if (i.language !== language || !i.success || !i.declared || !i.traced) continue;
      tally(phantom, difference(i.declared, i.traced));
      tally(hidden, difference(i.traced, i.declared));
    }
    for (const [kind, counts] of [['phantom', phantom], ['hidden', hidden]] as const) {
      top(counts, limit).forEach(([name, count], index) =>
        rows.push({ language, kind, rank: index + 1, package: name, count }),
      );
    }
  }
  return rows;
}
