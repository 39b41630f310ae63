import type { MetricsReport, QualitySummary } from './report';
import { CELL_RATES, DOMAIN_RATES, ENVIRONMENT_GAP_RATES, pairedValue, pairRows, QUALITY_RATES } from './secondDenominator';

/** The report's sections that carry rates, as one view of the instances computes them. */
export type CountedView = Pick<MetricsReport, 'cells' | 'languages' | 'cross_agent' | 'cdr_macro' | 'intra_agent' | 'environment_gap' | 'udr_macro' | 'domains' | 'weakest_domains' | 'repair_depth' | 'pass_at_k'>;

const QUALITY_CIS = ['sr0', 'final_sr', 'repaired_share', 'precision', 'recall', 'f1', 'phantom', 'hidden', 'bloat'] as const;

/** M1-M4 of a group with no instance left once its harness faults are left out. */
function noQuality(): QualitySummary {
  return {
    n: 0, successes: 0, first_attempt_failures: 0, sr0: null, final_sr: null, repaired_share: null,
    accuracy_n: 0, precision: null, recall: null, f1: null, rates_n: 0, phantom: null, hidden: null, bloat: null,
    rho_n: 0, rho_mean: null, rho_median: null,
    ...Object.fromEntries(QUALITY_CIS.map((f) => [`${f}_ci`, null])),
  };
}

/**
 * Pairs each rate of the left-out view (harness faults left out, with intervals) with the same rate
 * of the counted view (faults counted as failures): docs/metrics.md, "Both denominators".
 */
export function pairSecondDenominator(leftOut: CountedView, counted: CountedView): Omit<CountedView, 'cdr_macro'> & ReturnType<typeof pairedValue<'cdr_macro'>> {
  return {
    cells: pairRows(leftOut.cells, counted.cells, {
      key: (r) => `${r.agent}\u0000${r.language}`,
      rates: CELL_RATES,
      size: 'n',
      empty: (c) => ({ agent: c.agent, language: c.language, ...noQuality(), udr_n: 0, udr: null, udr_ci: null }),
    }),
    languages: pairRows(leftOut.languages, counted.languages, {
      key: (r) => r.language,
      rates: QUALITY_RATES,
      size: 'n',
      empty: (c) => ({ language: c.language, ...noQuality() }),
    }),
    cross_agent: pairRows(leftOut.cross_agent, counted.cross_agent, {
      key: (r) => `${r.language}\u0000${r.pair}`,
      rates: ['cdr'],
      empty: (c) => ({ language: c.language, pair: c.pair, n: 0, jaccard_mean: null, cdr: null, cdr_ci: null }),
    }),
    ...pairedValue('cdr_macro', leftOut.cdr_macro, counted.cdr_macro),
    intra_agent: pairRows(leftOut.intra_agent, counted.intra_agent, {
      key: (r) => `${r.agent}\u0000${r.language}`,
      rates: ['ucr'],
      empty: (c) => ({ agent: c.agent, language: c.language, trials: c.trials, tasks: 0, jaccard_mean: null, jaccard_median: null, unanimous: 0, ucr: null, ucr_ci: null, union_mean: null, core_mean: null }),
    }),
    environment_gap: pairRows(leftOut.environment_gap, counted.environment_gap, {
      key: (r) => r.agent,
      rates: ENVIRONMENT_GAP_RATES,
      size: 'failures',
      empty: (c) => ({ agent: c.agent, failures: 0, syslib: 0, slar: null, recovered: 0, egar: null, slar_ci: null, egar_ci: null }),
    }),
    udr_macro: pairRows(leftOut.udr_macro, counted.udr_macro, {
      key: (r) => r.agent,
      rates: ['udr'],
      empty: (c) => ({ agent: c.agent, languages: 0, udr: null }),
    }),
    domains: pairRows(leftOut.domains, counted.domains, {
      key: (r) => `${r.agent}\u0000${r.domain ?? '\u0001'}`,
      rates: DOMAIN_RATES,
      size: 'n',
      empty: (c) => ({ agent: c.agent, domain: c.domain, n: 0, sr0: null, final_sr: null, sr0_ci: null, final_sr_ci: null }),
    }),
    weakest_domains: pairRows(leftOut.weakest_domains, counted.weakest_domains, {
      key: (r) => r.agent,
      rates: ['sr0'],
      extras: ['domains'],
      empty: (c) => ({ agent: c.agent, sr0: null, domains: [] }),
    }),
    repair_depth: pairRows(leftOut.repair_depth, counted.repair_depth, {
      key: (r) => `${r.agent}\u0000${r.language}`,
      rates: [],
      size: 'failed',
      empty: (c) => ({ agent: c.agent, language: c.language, first_attempt: 0, depth_1_3: 0, depth_4_7: 0, depth_8_10: 0, depth_over_10: 0, depth_unknown: 0, failed: 0 }),
    }),
    // A k that only the faults' extra trials reach has no left-out value, and pass@k is never null: no row.
    pass_at_k: pairRows(leftOut.pass_at_k, counted.pass_at_k, {
      key: (r) => `${r.agent}\u0000${r.language}\u0000${r.k}`,
      rates: ['value'],
    }),
  };
}
