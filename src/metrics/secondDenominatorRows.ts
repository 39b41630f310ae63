import type { MetricsReport } from './report';
import { AS_FAILURES, CELL_RATES, DELTA, DOMAIN_RATES, ENVIRONMENT_GAP_RATES, QUALITY_RATES } from './secondDenominator';

/** One rate under both denominators: harness faults left out, and counted as failures. */
export interface SecondDenominatorRow {
  /** the metric: M1 success, M8, … */
  metric: string;
  /** the row of that section: `claude python`, `all java`, … */
  group: string;
  rate: string;
  /** harness faults in the group, where the section counts them */
  harness_errors: number | null;
  left_out: number | null;
  as_failures: number | null;
  delta: number | null;
}

type Row = Record<string, unknown>;
const value = (row: Row, field: string): number | null => (typeof row[field] === 'number' ? (row[field] as number) : null);

function rowsOf(metric: string, rows: readonly object[], label: (row: Row) => string, rates: readonly string[]): SecondDenominatorRow[] {
  return rows.flatMap((r) => {
    const row = r as Row;
    if (!(rates[0] + AS_FAILURES in row)) return [];
    return rates.map((rate) => ({
      metric,
      group: label(row),
      rate,
      harness_errors: value(row, 'harness_errors'),
      left_out: value(row, rate),
      as_failures: value(row, rate + AS_FAILURES),
      delta: value(row, rate + DELTA),
    }));
  });
}

/**
 * Every rate of the report under both denominators, in the report's order (docs/metrics.md, "Both
 * denominators"); with `changedOnly`, only those where counting the faults changed the value (or made
 * an undefined rate defined).
 */
export function secondDenominatorRows(report: MetricsReport, changedOnly = false): SecondDenominatorRow[] {
  const quality = [...QUALITY_RATES] as string[];
  const rows = [
    ...rowsOf('M1-M4, M7 cell', report.cells, (r) => `${r.agent} ${r.language}`, [...CELL_RATES]),
    ...rowsOf('M1-M4 language', report.languages, (r) => `all ${r.language}`, quality),
    ...rowsOf('M5 CDR', report.cross_agent, (r) => `${r.language} ${r.pair}`, ['cdr']),
    ...rowsOf('M5 CDR macro', [report], () => 'all languages', ['cdr_macro']),
    ...rowsOf('M6 UCR', report.intra_agent, (r) => `${r.agent} ${r.language}`, ['ucr']),
    ...rowsOf('M7 UDR macro', report.udr_macro, (r) => `${r.agent}`, ['udr']),
    ...rowsOf('M8', report.environment_gap, (r) => `${r.agent} cpp`, [...ENVIRONMENT_GAP_RATES]),
    ...rowsOf('success by domain', report.domains, (r) => `${r.agent} ${r.domain ?? '(none)'}`, [...DOMAIN_RATES]),
    ...rowsOf('weakest domain', report.weakest_domains, (r) => `${r.agent}`, ['sr0']),
    ...rowsOf('pass@k', report.pass_at_k, (r) => `${r.agent} ${r.language} k=${r.k}`, ['value']),
  ];
  return changedOnly ? rows.filter((r) => (r.delta !== null && r.delta !== 0) || (r.left_out === null) !== (r.as_failures === null)) : rows;
}
