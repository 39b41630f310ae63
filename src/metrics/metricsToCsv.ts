import { toCsv, type CsvValue } from './csvText';
import { confirmedCsv } from './confirmedTable';
import type { MetricsReport } from './report';
import { CELL_RATES, columnsWithSecondDenominator, DOMAIN_RATES, ENVIRONMENT_GAP_RATES, QUALITY_RATES } from './secondDenominator';

/**
 * The named columns, each rate of `rates` followed by its second denominator (`<rate>_errors_as_failures`,
 * `<rate>_errors_delta`) and the `size` column by `harness_errors`; then, for each rate with an interval,
 * `<rate>_ci_low` and `<rate>_ci_high`.
 */
function section<T extends object>(named: readonly (keyof T & string)[], rows: readonly T[], rates: readonly string[] = [], size?: string): string {
  const columns = columnsWithSecondDenominator(named, rates, size) as (keyof T & string)[];
  const cell = (value: unknown): CsvValue =>
    Array.isArray(value) ? value.join(';') : (value as CsvValue | undefined) ?? null;
  const rated = named.filter((c) => rows.some((r) => `${c}_ci` in r));
  const header = [...columns, ...rated.flatMap((c) => [`${c}_ci_low`, `${c}_ci_high`])];
  const ci = (r: T, c: string) => (r as Record<string, unknown>)[`${c}_ci`] as { low: number; high: number } | null | undefined;
  return toCsv(header, rows.map((r) => [...columns.map((c) => cell(r[c])), ...rated.flatMap((c) => [ci(r, c)?.low ?? null, ci(r, c)?.high ?? null])]));
}

const SUMMARY_COLUMNS = [
  'n', 'successes', 'first_attempt_failures', 'sr0', 'final_sr', 'repaired_share',
  'accuracy_n', 'precision', 'recall', 'f1', 'rates_n', 'phantom', 'hidden', 'bloat',
  'rho_n', 'rho_mean', 'rho_median',
] as const;

/** One CSV text per report section, keyed by file name (summary.csv holds the single values). */
export function metricsToCsv(report: MetricsReport): Record<string, string> {
  return {
    'summary.csv': toCsv(
      ['schema', 'primary_trial', 'records', 'excluded_errors', 'count_environment', 'environment_excluded', 'cdr_macro', 'cdr_macro_errors_as_failures', 'cdr_macro_errors_delta'],
      [[
        report.schema, report.primary_trial, report.records, report.excluded_errors, report.count_environment, report.environment_excluded,
        report.cdr_macro, report.cdr_macro_errors_as_failures ?? null, report.cdr_macro_errors_delta ?? null,
      ]],
    ),
    'cells.csv': section(['agent', 'language', ...SUMMARY_COLUMNS, 'udr_n', 'udr'], report.cells, CELL_RATES, 'n'),
    'languages.csv': section(['language', ...SUMMARY_COLUMNS], report.languages, QUALITY_RATES, 'n'),
    'cross_agent.csv': section(['language', 'pair', 'n', 'jaccard_mean', 'cdr'], report.cross_agent, ['cdr']),
    'intra_agent.csv': section(
      ['agent', 'language', 'trials', 'tasks', 'jaccard_mean', 'jaccard_median', 'unanimous', 'ucr', 'union_mean', 'core_mean'],
      report.intra_agent,
      ['ucr'],
    ),
    'environment_gap.csv': section(['agent', 'failures', 'syslib', 'slar', 'recovered', 'egar'], report.environment_gap, ENVIRONMENT_GAP_RATES, 'failures'),
    'udr_macro.csv': section(['agent', 'languages', 'udr'], report.udr_macro, ['udr']),
    'domains.csv': section(['agent', 'domain', 'n', 'sr0', 'final_sr'], report.domains, DOMAIN_RATES, 'n'),
    'weakest_domains.csv': section(['agent', 'sr0', 'domains', 'domains_errors_as_failures'], report.weakest_domains, ['sr0']),
    'repair_depth.csv': section(
      ['agent', 'language', 'first_attempt', 'depth_1_3', 'depth_4_7', 'depth_8_10', 'depth_over_10', 'depth_unknown', 'failed'],
      report.repair_depth,
      [],
      'failed',
    ),
    'spearman.csv': section(['language', 'n', 'rho', 'p'], report.spearman),
    'frequent_packages.csv': section(['language', 'kind', 'rank', 'package', 'count'], report.frequent_packages),
    'pass_at_k.csv': section(['agent', 'language', 'k', 'tasks', 'value'], report.pass_at_k, ['value']),
    'flaky.csv': section(['agent', 'language', 'task', 'trials', 'successes'], report.flaky),
    'usage.csv': section(
      ['agent', 'language', 'instances', 'calls', 'tokens_in', 'tokens_out', 'cost_usd', 'cost_calls', 'agent_time_s', 'agent_versions', 'cost_sources'],
      report.usage,
    ),
    ...confirmedCsv(report),
  };
}
