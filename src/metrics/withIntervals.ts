import { instanceAccuracy } from './accuracy';
import type { Instance } from './instances';
import { bootstrapMeansOverTasks, wilson, wilsonOfShare, type BootstrapOptions } from './intervals';
import { instanceRates } from './rates';
import type { CellMetrics, CrossAgentRow, DomainRow, EnvironmentGapRow, IntraAgentRow, LanguageMetrics, QualitySummary } from './report';

const MEANS = ['precision', 'recall', 'f1', 'phantom', 'hidden', 'bloat'] as const;

/**
 * M1's plain proportions get Wilson intervals; the means over successful instances (P, R, F1 and the
 * mismatch rates) a bootstrap over the group's tasks.
 */
export function withQualityIntervals<R extends QualitySummary>(row: R, group: readonly Instance[], o: BootstrapOptions): R {
  const firstAttempt = row.n - row.first_attempt_failures;
  // The same per-instance values accuracySummary and mismatchSummary average.
  const means = bootstrapMeansOverTasks(group, MEANS, (i) => ({ ...(instanceAccuracy(i) ?? {}), ...(instanceRates(i) ?? {}) }), o);
  return {
    ...row,
    sr0_ci: wilson(firstAttempt, row.n),
    final_sr_ci: wilson(row.successes, row.n),
    repaired_share_ci: wilson(Math.max(0, row.successes - firstAttempt), row.first_attempt_failures),
    ...Object.fromEntries(MEANS.map((f) => [`${f}_ci`, means[f]])),
  };
}

export function withCellIntervals(rows: readonly CellMetrics[], primary: readonly Instance[], o: BootstrapOptions): CellMetrics[] {
  return rows.map((c) => ({
    ...withQualityIntervals(c, primary.filter((i) => i.agent === c.agent && i.language === c.language), o),
    udr_ci: wilsonOfShare(c.udr, c.udr_n),
  }));
}

export function withLanguageIntervals(rows: readonly LanguageMetrics[], primary: readonly Instance[], o: BootstrapOptions): LanguageMetrics[] {
  return rows.map((l) => withQualityIntervals(l, primary.filter((i) => i.language === l.language), o));
}

export const withDomainIntervals = (rows: readonly DomainRow[]): DomainRow[] =>
  rows.map((d) => ({ ...d, sr0_ci: wilsonOfShare(d.sr0, d.n), final_sr_ci: wilsonOfShare(d.final_sr, d.n) }));

export const withEnvironmentGapIntervals = (rows: readonly EnvironmentGapRow[]): EnvironmentGapRow[] =>
  rows.map((r) => ({ ...r, slar_ci: wilson(r.syslib, r.failures), egar_ci: wilson(r.recovered, r.syslib) }));

export const withIntraAgentIntervals = (rows: readonly IntraAgentRow[]): IntraAgentRow[] => rows.map((r) => ({ ...r, ucr_ci: wilson(r.unanimous, r.tasks) }));

export const withCrossAgentIntervals = (rows: readonly CrossAgentRow[]): CrossAgentRow[] => rows.map((r) => ({ ...r, cdr_ci: wilsonOfShare(r.cdr, r.n) }));
