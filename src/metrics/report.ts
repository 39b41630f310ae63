import type { Language } from '../domain/instance';
import type { ConfirmedRates } from './confirmedRates';
import type { UsageRow } from './usage';
import type { CELL_RATES, DOMAIN_RATES, ENVIRONMENT_GAP_RATES, QualityRate } from './secondDenominator';
import type { Rate } from './rate';

export type { Rate } from './rate';

/** A rate's 95% interval, beside it as `<rate>_ci` (docs/metrics.md, "Uncertainty"); null where the rate is. */
export type RateInterval = { low: number; high: number } | null;

/**
 * The second denominator beside each rate `x` (docs/metrics.md, "Both denominators"): `x_errors_as_failures`,
 * the rate with the group's harness faults (status `error`) counted as failures, and `x_errors_delta`, that
 * value less `x` (faults left out). Set by computeMetrics; absent on rows made another way.
 */
export type BothDenominators<F extends string> = { [K in F as `${K}_errors_as_failures`]?: Rate } & { [K in F as `${K}_errors_delta`]?: Rate };

/** How many harness faults (status `error`) the row's group held: left out of its rates, counted as failures in the second ones. */
export interface HarnessFaults {
  harness_errors?: number;
}

/** M1 over one group of primary instances. */
export interface SuccessRates {
  /** instances (status success or failed) */
  n: number;
  successes: number;
  first_attempt_failures: number;
  sr0: Rate;
  final_sr: Rate;
  repaired_share: Rate;
  sr0_ci?: RateInterval;
  final_sr_ci?: RateInterval;
  repaired_share_ci?: RateInterval;
}

/** M1-M4 over one group of primary instances (a cell, or a language pooled over agents). */
export interface QualitySummary extends SuccessRates, BothDenominators<QualityRate>, HarnessFaults {
  /** successful instances in P/R/F1 (those with n1 = n3 = 0 are left out) */
  accuracy_n: number;
  precision: Rate;
  recall: Rate;
  f1: Rate;
  /** successful instances with a traced set, over which the mismatch rates are averaged */
  rates_n: number;
  phantom: Rate;
  hidden: Rate;
  bloat: Rate;
  /** successful instances with n1 > 0 and a known n2 */
  rho_n: number;
  rho_mean: number | null;
  rho_median: number | null;
  precision_ci?: RateInterval;
  recall_ci?: RateInterval;
  f1_ci?: RateInterval;
  phantom_ci?: RateInterval;
  hidden_ci?: RateInterval;
  bloat_ci?: RateInterval;
  /** Beside M3: the phantom and bloat rates confirmed by removal, over the instances confirmed (absent where none was). */
  confirmed?: ConfirmedRates;
}

export interface CellMetrics extends QualitySummary, BothDenominators<(typeof CELL_RATES)[number]> {
  agent: string;
  language: Language;
  /** successful instances on standard-library-sufficient tasks */
  udr_n: number;
  udr: Rate;
  udr_ci?: RateInterval;
}

export interface LanguageMetrics extends QualitySummary {
  language: Language;
}

export interface CrossAgentRow extends BothDenominators<'cdr'> {
  language: Language;
  /** `a-b` with the agent names sorted, or `all` for every pair pooled */
  pair: string;
  /** (task, pair) comparisons where both instances succeeded */
  n: number;
  jaccard_mean: number | null;
  cdr: Rate;
  cdr_ci?: RateInterval;
}

export interface IntraAgentRow extends BothDenominators<'ucr'> {
  agent: string;
  language: Language;
  trials: number;
  /** tasks where every one of the agent's trials succeeded */
  tasks: number;
  jaccard_mean: number | null;
  jaccard_median: number | null;
  unanimous: number;
  ucr: Rate;
  ucr_ci?: RateInterval;
  union_mean: number | null;
  core_mean: number | null;
}

export interface EnvironmentGapRow extends BothDenominators<(typeof ENVIRONMENT_GAP_RATES)[number]>, HarnessFaults {
  agent: string;
  failures: number;
  syslib: number;
  slar: Rate;
  recovered: number;
  egar: Rate;
  slar_ci?: RateInterval;
  egar_ci?: RateInterval;
}

export interface UdrMacroRow extends BothDenominators<'udr'> {
  agent: string;
  /** languages with a defined UDR, averaged */
  languages: number;
  udr: Rate;
}

export interface DomainRow extends BothDenominators<(typeof DOMAIN_RATES)[number]>, HarnessFaults {
  agent: string;
  domain: string | null;
  n: number;
  sr0: Rate;
  final_sr: Rate;
  sr0_ci?: RateInterval;
  final_sr_ci?: RateInterval;
}

export interface WeakestDomainRow extends BothDenominators<'sr0'> {
  agent: string;
  sr0: Rate;
  /** every domain at that first-attempt rate (ties are all listed) */
  domains: (string | null)[];
  /** the weakest domains with the harness faults counted as failures */
  domains_errors_as_failures?: (string | null)[];
}

export interface RepairDepthRow extends HarnessFaults {
  agent: string;
  language: Language;
  first_attempt: number;
  depth_1_3: number;
  depth_4_7: number;
  depth_8_10: number;
  depth_over_10: number;
  /** successful after repair, depth not recorded */
  depth_unknown: number;
  failed: number;
}

export interface SpearmanRow {
  language: Language;
  n: number;
  rho: number | null;
  p: number | null;
}

export interface FrequentPackageRow {
  language: Language;
  kind: 'phantom' | 'hidden';
  rank: number;
  package: string;
  count: number;
}

/** pass@k of one (agent, language): the unbiased estimator averaged over its tasks with at least k trials. */
export interface PassAtKRow extends BothDenominators<'value'> {
  agent: string;
  language: Language;
  k: number;
  tasks: number;
  value: number;
}

/** A task whose trials disagree on success. */
export interface FlakyTask {
  agent: string;
  language: Language;
  task: string;
  trials: number;
  successes: number;
}

export interface MetricsReport {
  schema: 'envgap.metrics/v1';
  primary_trial: number;
  records: number;
  excluded_errors: number;
  /** whether failed instances classed Environment are kept in the metrics (`--count-environment`) */
  count_environment: boolean;
  /** failed records whose first error was Environment, left out of every metric (0 when counted) */
  environment_excluded: number;
  /** whether D1 was read without its test-scoped names (`--exclude-test-scope`) */
  exclude_test_scope?: boolean;
  /** whether successes reached through an iteration a person wrote were left out (`--exclude-human-repairs`) */
  exclude_human_repairs?: boolean;
  /** whether M7's eligibility came from the task catalog's a-priori annotation where the records leave it null (else from the runs) */
  stdlib_from_catalog?: boolean;
  cells: CellMetrics[];
  languages: LanguageMetrics[];
  cross_agent: CrossAgentRow[];
  cdr_macro: Rate;
  cdr_macro_errors_as_failures?: Rate;
  cdr_macro_errors_delta?: Rate;
  intra_agent: IntraAgentRow[];
  environment_gap: EnvironmentGapRow[];
  udr_macro: UdrMacroRow[];
  domains: DomainRow[];
  weakest_domains: WeakestDomainRow[];
  repair_depth: RepairDepthRow[];
  spearman: SpearmanRow[];
  frequent_packages: FrequentPackageRow[];
  /** With several trials: pass@k for k = 1 up to the most trials of a task, per (agent, language). */
  pass_at_k: PassAtKRow[];
  flaky: FlakyTask[];
  /** Tokens, cost, agent time and calls per (agent, language), every trial and status; records without usage add nothing. */
  usage: UsageRow[];
  /** How the intervals were drawn: the bootstrap's seed and resamples. */
  intervals: { level: 0.95; bootstrap_seed: number; bootstrap_resamples: number };
}
