import type { InstanceRecord } from '../domain/instance';
import { cdrMacro, crossAgentAgreement } from './crossAgent';
import { successByDomain, weakestDomains } from './domains';
import { environmentGap } from './environmentGap';
import { frequentPackages } from './frequentPackages';
import { prepareInstances, type Instance } from './instances';
import type { StdlibAnnotation } from './stdlibSufficiency';
import { intraAgentAgreement } from './intraAgent';
import { manifestSizeCorrelation } from './manifestSize';
import type { MetricsReport } from './report';
import { cellMetrics, languageMetrics, repairDepthRows } from './summary';
import { udrMacro } from './udr';
import { usageByAgentLanguage } from './usage';
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED } from './intervals';
import { flakyTasks, passAtKRows } from './passAtK';
import { pairSecondDenominator, type CountedView } from './pairSecondDenominator';
import { withCellIntervals, withCrossAgentIntervals, withDomainIntervals, withEnvironmentGapIntervals, withIntraAgentIntervals, withLanguageIntervals } from './withIntervals';

export interface MetricsOptions {
  /** the trial whose runs are the primary ones (all metrics but M6); default 1 */
  primaryTrial?: number;
  /** how many phantom and hidden packages to list per language; default 5 */
  topPackages?: number;
  /**
   * keep failed instances whose first error was Environment (what the machine cannot give: a service,
   * a host, credentials, a download) in every metric; by default they are left out and counted in
   * `environment_excluded`
   */
  countEnvironment?: boolean;
  /** D1 without its test-scoped names (`declared_test`) */
  excludeTestScope?: boolean;
  /** successes reached through an iteration a person wrote count as failures */
  excludeHumanRepairs?: boolean;
  /**
   * the task catalog's a-priori standard-library sufficiency (`<language>/<task>` -> sufficient), M7's
   * eligibility where a record leaves it null; without it, or for a task it does not name, the rule over
   * the runs decides (docs/metrics.md, M7)
   */
  stdlibAnnotation?: StdlibAnnotation;
  /** the bootstrap's seed and resamples for the intervals of means (docs/metrics.md, "Uncertainty") */
  bootstrapSeed?: number;
  bootstrapResamples?: number;
}

/** The sections whose rates get a second denominator, computed over instances with the harness faults kept as failures. */
function countedView(instances: readonly Instance[], primaryTrial: number): CountedView {
  const primary = instances.filter((i) => i.trial === primaryTrial);
  const cells = cellMetrics(primary);
  const crossAgent = crossAgentAgreement(primary);
  const domains = successByDomain(primary);
  return {
    cells,
    languages: languageMetrics(primary),
    cross_agent: crossAgent,
    cdr_macro: cdrMacro(crossAgent),
    intra_agent: intraAgentAgreement(instances),
    environment_gap: environmentGap(primary),
    udr_macro: udrMacro(cells),
    domains,
    weakest_domains: weakestDomains(domains),
    repair_depth: repairDepthRows(primary),
    pass_at_k: passAtKRows(instances),
  };
}

/**
 * The environment-gap metrics M1-M8 (docs/metrics.md) over instance records. Pure: no I/O, and the
 * result does not depend on the order of the records. Records with status `error` are left out of
 * every metric and counted in `excluded_errors`; so, unless `countEnvironment`, are failed records
 * whose first error was Environment (never the agent's), counted in `environment_excluded`. Beside
 * every rate, the same rate with the `error` records counted as failures, and the difference
 * (`<rate>_errors_as_failures`, `<rate>_errors_delta`; docs/metrics.md, "Both denominators").
 */
export function computeMetrics(records: readonly InstanceRecord[], opts: MetricsOptions = {}): MetricsReport {
  const primaryTrial = opts.primaryTrial ?? 1;
  const countEnvironment = opts.countEnvironment === true;
  const excludeTestScope = opts.excludeTestScope === true;
  const excludeHumanRepairs = opts.excludeHumanRepairs === true;
  // Prepared once with the harness faults kept as failures; the first denominator leaves them out.
  const { instances: withFaults, excludedErrors, excludedEnvironment } = prepareInstances(records, { countEnvironment, excludeTestScope, excludeHumanRepairs, errorsAsFailures: true, stdlibAnnotation: opts.stdlibAnnotation });
  const instances = excludedErrors === 0 ? withFaults : withFaults.filter((i) => i.harnessFault !== true);
  const primary = instances.filter((i) => i.trial === primaryTrial);
  const bootstrap = { seed: opts.bootstrapSeed ?? BOOTSTRAP_SEED, resamples: opts.bootstrapResamples ?? BOOTSTRAP_RESAMPLES };
  const cells = withCellIntervals(cellMetrics(primary), primary, bootstrap);
  const crossAgent = withCrossAgentIntervals(crossAgentAgreement(primary));
  const domains = withDomainIntervals(successByDomain(primary));
  const leftOut = {
    cells,
    languages: withLanguageIntervals(languageMetrics(primary), primary, bootstrap),
    cross_agent: crossAgent,
    cdr_macro: cdrMacro(crossAgent),
    intra_agent: withIntraAgentIntervals(intraAgentAgreement(instances)),
    environment_gap: withEnvironmentGapIntervals(environmentGap(primary)),
    udr_macro: udrMacro(cells),
    domains,
    weakest_domains: weakestDomains(domains),
    repair_depth: repairDepthRows(primary),
    pass_at_k: passAtKRows(instances),
  };
  // Without a fault the counted view is the left-out one: both denominators agree.
  const both = pairSecondDenominator(leftOut, excludedErrors === 0 ? leftOut : countedView(withFaults, primaryTrial));
  return {
    schema: 'envgap.metrics/v1',
    primary_trial: primaryTrial,
    records: records.length,
    excluded_errors: excludedErrors,
    count_environment: countEnvironment,
    environment_excluded: excludedEnvironment,
    ...(excludeTestScope ? { exclude_test_scope: true } : {}),
    ...(excludeHumanRepairs ? { exclude_human_repairs: true } : {}),
    ...(opts.stdlibAnnotation ? { stdlib_from_catalog: true } : {}),
    cells: both.cells,
    languages: both.languages,
    cross_agent: both.cross_agent,
    cdr_macro: both.cdr_macro,
    cdr_macro_errors_as_failures: both.cdr_macro_errors_as_failures,
    cdr_macro_errors_delta: both.cdr_macro_errors_delta,
    intra_agent: both.intra_agent,
    environment_gap: both.environment_gap,
    udr_macro: both.udr_macro,
    domains: both.domains,
    weakest_domains: both.weakest_domains,
    repair_depth: both.repair_depth,
    spearman: manifestSizeCorrelation(primary),
    frequent_packages: frequentPackages(primary, opts.topPackages ?? 5),
    pass_at_k: both.pass_at_k,
    flaky: flakyTasks(instances),
    usage: usageByAgentLanguage(records),
    intervals: { level: 0.95, bootstrap_seed: bootstrap.seed, bootstrap_resamples: bootstrap.resamples },
  };
}
