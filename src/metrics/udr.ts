import { sortedUnique, type Instance } from './instances';
import type { CellMetrics, UdrMacroRow } from './report';
import { countWhere, mean, share } from './stats';

/**
 * M7 for one cell: over successful instances on standard-library-sufficient tasks, the share that
 * declared at least one dependency (n1 >= 1, n1 being the per-run count where the record has one).
 */
export function unnecessaryDependencyRate(instances: readonly Instance[]) {
  const eligible = instances.filter((i) => i.success && i.stdlibSufficient === true && i.declaredCount !== null);
  return {
    udr_n: eligible.length,
    udr: share(countWhere(eligible, (i) => (i.declaredCount as number) >= 1), eligible.length),
  };
}

/** M7 macro average per agent: the mean of its cells' UDR over the languages where it is defined. */
export function udrMacro(cells: readonly CellMetrics[]): UdrMacroRow[] {
  return sortedUnique(cells.map((c) => c.agent)).map((agent) => {
    const rates = cells.filter((c) => c.agent === agent && c.udr !== null).map((c) => c.udr as number);
    return { agent, languages: rates.length, udr: mean(rates) };
  });
}
