import { formatTable } from '../text/table';
import { usageTextTable } from './usageTextTable';
import type { Language } from '../domain/instance';
import { ECOSYSTEMS } from '../ecosystems/registry';
import type { MetricsReport, QualitySummary, RateInterval } from './report';
import { secondDenominatorRows } from './secondDenominatorRows';
import { confirmedSection } from './confirmedTable';

const languageName = (language: Language): string => ECOSYSTEMS[language].displayName;

const fraction = (v: number | null) => (v === null ? null : v.toFixed(3));
const percent = (v: number | null) => (v === null ? null : (100 * v).toFixed(1));
const ratio = (v: number | null) => (v === null ? null : v.toFixed(2));
/** A rate with its 95% interval: `68.7 [60.9–75.5]` (percent) or `0.765 [0.713–0.812]`. */
function withInterval(v: number | null, ci: RateInterval | undefined, as: 'percent' | 'fraction'): string | null {
  const f = as === 'percent' ? percent : fraction;
  if (v === null) return null;
  return ci ? `${f(v)} [${f(ci.low)}–${f(ci.high)}]` : f(v);
}

function intervalColumns(s: QualitySummary) {
  return [
    withInterval(s.sr0, s.sr0_ci, 'percent'), withInterval(s.final_sr, s.final_sr_ci, 'percent'),
    withInterval(s.f1, s.f1_ci, 'fraction'), withInterval(s.phantom, s.phantom_ci, 'fraction'),
    withInterval(s.hidden, s.hidden_ci, 'fraction'), withInterval(s.bloat, s.bloat_ci, 'fraction'),
  ];
}

function qualityColumns(s: QualitySummary & { udr?: number | null }) {
  return [
    s.n, percent(s.sr0), percent(s.final_sr), percent(s.repaired_share),
    fraction(s.precision), fraction(s.recall), fraction(s.f1),
    fraction(s.phantom), fraction(s.hidden), fraction(s.bloat),
    ratio(s.rho_mean), ratio(s.rho_median), s.udr === undefined ? null : percent(s.udr),
  ];
}

const QUALITY_HEADERS = [
  'n', 'SR0 %', 'final SR %', 'repaired %', 'P', 'R', 'F1', 'phantom', 'hidden', 'bloat', 'rho mean', 'rho median', 'UDR %',
];

/**
 * The report for people: first the manifest-accuracy table in the layout of the paper's Table 4
 * (one row per agent and language, then the languages pooled over agents as "all"), with M1-M3 and
 * M7 beside it, then the other sections.
 */
export function formatMetricsTable(report: MetricsReport): string {
  const parts: string[] = [];
  parts.push(
    `envgap metrics: ${report.records} records, primary trial ${report.primary_trial}, ` +
      `${report.excluded_errors} left out (status error)` +
      (report.count_environment ? ', Environment failures counted' : `, ${report.environment_excluded} left out (Environment)`) +
      (report.exclude_test_scope ? ', D1 without test scope' : '') +
      (report.exclude_human_repairs ? ', human repairs not counted' : '') +
      (report.stdlib_from_catalog ? ", M7 eligibility from the catalog's annotation" : ''),
  );

  parts.push(
    formatTable(['agent', 'language', ...QUALITY_HEADERS], [
      ...report.cells.map((c) => [c.agent, languageName(c.language), ...qualityColumns(c)]),
      ...report.languages.map((l) => ['all', languageName(l.language), ...qualityColumns(l)]),
    ]),
  );

  parts.push(
    `95% intervals: Wilson for SR0 and final SR, a bootstrap over tasks (seed ${report.intervals.bootstrap_seed}, ${report.intervals.bootstrap_resamples} resamples) for the means\n` +
      formatTable(['agent', 'language', 'SR0 %', 'final SR %', 'F1', 'phantom', 'hidden', 'bloat'], [
        ...report.cells.map((c) => [c.agent, languageName(c.language), ...intervalColumns(c)]),
        ...report.languages.map((l) => ['all', languageName(l.language), ...intervalColumns(l)]),
      ]),
  );

  const confirmed = confirmedSection(report, languageName);
  if (confirmed) parts.push(confirmed);

  parts.push(secondDenominatorSection(report));

  parts.push(
    'Cross-agent agreement (M5), declared sets of successful instances\n' +
      formatTable(
        ['language', 'pair', 'n', 'mean J', 'CDR %'],
        report.cross_agent.map((r) => [languageName(r.language), r.pair, r.n, fraction(r.jaccard_mean), percent(r.cdr)]),
      ) +
      `\nCDR macro average: ${percent(report.cdr_macro) ?? '-'} %`,
  );

  if (report.intra_agent.length > 0) {
    parts.push(
      'Intra-agent agreement over trials (M6)\n' +
        formatTable(
          ['agent', 'language', 'trials', 'tasks', 'mean J', 'median J', 'UCR', 'union', 'core'],
          report.intra_agent.map((r) => [
            r.agent, languageName(r.language), r.trials, r.tasks, fraction(r.jaccard_mean), fraction(r.jaccard_median),
            `${r.unanimous}/${r.tasks} (${percent(r.ucr) ?? '-'} %)`, ratio(r.union_mean), ratio(r.core_mean),
          ]),
        ),
    );
  }

  parts.push(
    'C++ environment gap (M8)\n' +
      formatTable(
        ['agent', 'fail', 'SysLib', 'SLAR %', 'recovered', 'EGAR %'],
        report.environment_gap.map((r) => [r.agent, r.failures, r.syslib, withInterval(r.slar, r.slar_ci, 'percent'), r.recovered, withInterval(r.egar, r.egar_ci, 'percent')]),
      ),
  );

  parts.push(
    'Unnecessary dependency rate (M7), macro average over languages\n' +
      formatTable(['agent', 'languages', 'UDR %'], report.udr_macro.map((r) => [r.agent, r.languages, percent(r.udr)])),
  );

  parts.push(
    'Manifest size |D1| against first-attempt success (Spearman)\n' +
      formatTable(
        ['language', 'n', 'rho', 'p'],
        report.spearman.map((r) => [languageName(r.language), r.n, fraction(r.rho), r.p === null ? null : r.p.toFixed(4)]),
      ),
  );

  if (report.pass_at_k.length > 0) {
    parts.push(
      'pass@k over trials (unbiased estimator, tasks with at least k trials)\n' +
        formatTable(['agent', 'language', 'k', 'tasks', 'pass@k %'], report.pass_at_k.map((r) => [r.agent, languageName(r.language), r.k, r.tasks, percent(r.value)])) +
        `\nflaky tasks (trials disagree on success): ${report.flaky.length === 0 ? 'none' : report.flaky.map((f) => `${f.agent}/${f.language}/${f.task} ${f.successes}/${f.trials}`).join(', ')}`,
    );
  }

  parts.push(usageSection(report));

  return parts.join('\n\n') + '\n';
}

const signed = (v: number | null) => (v === null ? null : `${v > 0 ? '+' : v < 0 ? '-' : '±'}${Math.abs(v).toFixed(3)}`);

/**
 * Both denominators (docs/metrics.md): each rate that changes when the harness faults (status error)
 * count as failures, beside its value with them left out, and the difference.
 */
function secondDenominatorSection(report: MetricsReport): string {
  const title = 'Both denominators: harness faults (status error) left out, and counted as failures';
  if (report.excluded_errors === 0) return `${title}: no harness fault, so every rate is the same under both`;
  const changed = secondDenominatorRows(report, true);
  return (
    `${title} (${report.excluded_errors} faults); the rates that change\n` +
    formatTable(
      ['metric', 'group', 'faults', 'rate', 'left out', 'as failures', 'difference'],
      changed.map((r) => [r.metric, r.group, r.harness_errors, r.rate, fraction(r.left_out), fraction(r.as_failures), signed(r.delta)]),
    ) +
    '\nevery other rate is the same under both (P, R, F1, the mismatch rates, M5-M7 are over successful instances, which a fault never is)'
  );
}

/** What the agents spent per agent and language; `-` where no call reported a figure (unknown, not 0). */
function usageSection(report: MetricsReport): string {
  if (report.usage.length === 0) return 'Agent usage: no record carries one (records imported, or from before usage was kept)';
  return (
    'Agent usage per agent and language (every trial and status; cost in US dollars, with (n/m) where n of m calls reported one)\n' +
    usageTextTable(report.usage.map((u) => ({ ...u, language: languageName(u.language) })))
  );
}
