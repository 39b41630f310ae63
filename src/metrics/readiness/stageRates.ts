import type { StageCount } from './types';

/**
 * A stage's pass rate under both denominators (docs/metrics.md, "Both denominators"): successes over the
 * jobs where it applies, and over those plus the jobs that ended in a harness fault, counted as failures.
 */
export function withStageRates(count: Omit<StageCount, 'harness_errors' | 'rate' | 'rate_errors_as_failures' | 'rate_errors_delta'>, harnessErrors: number): StageCount {
  const rate = count.applicable === 0 ? null : count.success / count.applicable;
  const whole = count.applicable + harnessErrors;
  const asFailures = whole === 0 ? null : count.success / whole;
  return { ...count, harness_errors: harnessErrors, rate, rate_errors_as_failures: asFailures, rate_errors_delta: rate === null || asFailures === null ? null : asFailures - rate };
}
