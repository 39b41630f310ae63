import type { SetupPrecisionSummary } from './setupPrecision';

/** Successes over the jobs a stage counts; `failed` and `skipped` are the rest of that denominator. */
export interface StageCount {
  success: number;
  applicable: number;
  failed: number;
  skipped: number;
  /** envgap mode: jobs where the stage applies that left the denominator (skipped for want of hardware or an entry). */
  excluded: number;
  /**
   * envgap mode: jobs where the stage applies that ended in a harness fault (status error), left out of
   * `applicable`; the second denominator counts them as failures (docs/metrics.md, "Both denominators").
   */
  harness_errors?: number;
  /** success / applicable; null where nothing applies */
  rate?: number | null;
  /** success / (applicable + harness_errors) */
  rate_errors_as_failures?: number | null;
  rate_errors_delta?: number | null;
}

export interface ReadinessGroup {
  baseline: string;
  /** upstream mode: upstream groups by run and baseline. */
  run_id?: string;
  jobs: number;
  /** `unknown`: jobs whose pyright stage did not succeed (upstream counts them as 0 missing; envgap leaves them out). */
  c0: { missing: number; total: number; unknown: number };
  c1: StageCount;
  c2: StageCount;
  c3: StageCount;
  c4: StageCount;
  c5: { path: number; version: number; capability: number };
  agent_time_avg_s: number | null;
  env_size_avg_gb: number | null;
  /** Jobs that gave the agent time and the environment size (the averages' denominators). */
  agent_time_jobs: number;
  env_size_jobs: number;
  /** envgap mode: records that ended in a harness error, left out of every stage. */
  errors: number;
  /** envgap mode: the mean setup precision (docs/readiness.md, "Setup precision"). */
  setup_precision?: SetupPrecisionSummary;
}

export type ReadinessMode = 'envgap' | 'upstream';

export interface ReadinessMetrics {
  mode: ReadinessMode;
  groups: ReadinessGroup[];
}
