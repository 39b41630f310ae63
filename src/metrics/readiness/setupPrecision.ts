import type { ReadinessRecord } from '../../domain/readiness';
import { SETUP_KINDS, type SetupKind } from '../../domain/setupPrecision';

/**
 * An agent's mean setup precision under both denominators (docs/metrics.md, "Both denominators"):
 * over its jobs whose precision is defined, and over those plus its harness faults (an instance that
 * ended in error, or whose measurement failed) each counted as precision 0.
 */
export interface SetupPrecisionSummary {
  /** Jobs with a defined precision (something installed and something traced). */
  jobs: number;
  /** Jobs measured where the agent installed nothing, or nothing could be traced: no precision. */
  undefined_jobs: number;
  mean: number | null;
  harness_errors: number;
  mean_errors_as_failures: number | null;
  mean_errors_delta: number | null;
  /** The mean of each kind's precision over the jobs where that kind's is defined. */
  by_kind: Record<SetupKind, number | null>;
}

const mean = (values: number[]): number | null => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);

/** The summary of one agent's records (all of them: faults included). Pure. */
export function summariseSetupPrecision(records: readonly ReadinessRecord[]): SetupPrecisionSummary {
  const measured = records.filter((r) => r.status !== 'error' && r.setup_precision && r.setup_precision.error === null).map((r) => r.setup_precision!);
  // Faults count only where setup precision was measured at all (records from before it have none).
  const studied = records.some((r) => r.setup_precision !== undefined);
  const faults = studied ? records.filter((r) => r.status === 'error' || (r.setup_precision?.error ?? null) !== null).length : 0;
  const values = measured.map((s) => s.precision).filter((p): p is number => p !== null);
  const first = mean(values);
  const whole = values.length + faults;
  const second = whole === 0 ? null : values.reduce((a, b) => a + b, 0) / whole;
  const byKind = Object.fromEntries(SETUP_KINDS.map((k) => [k, mean(measured.map((s) => s.kinds?.[k].precision ?? null).filter((p): p is number => p !== null))])) as Record<SetupKind, number | null>;
  return {
    jobs: values.length,
    undefined_jobs: measured.length - values.length,
    mean: first,
    harness_errors: faults,
    mean_errors_as_failures: second,
    mean_errors_delta: first === null || second === null ? null : second - first,
    by_kind: byKind,
  };
}
