import { z } from 'zod';
import type { ReadinessRecord } from './readiness';

/**
 * What ResearchEnvBench's scorer (m5/build_master_table.py) reads from one job, as it reads it, kept
 * under a readiness record's `upstream.researchenvbench` by `envgap import researchenvbench`.
 * Statuses are upstream's normalised words (success, failed, skipped, missing, or any other word).
 */
export const ResearchEnvBenchRaw = z.object({
  run_id: z.string(),
  job_id: z.string(),
  /** The job's folder, relative to the run directory. */
  job_dir: z.string(),
  /** job_summary's `baseline`, else `baseline_backend`, else `baseline_input`; may be empty. */
  baseline: z.string(),
  repo_full_name: z.string(),
  repo_url: z.string(),
  script_id: z.string(),
  /** scripts_repos_test_categories.csv's supports_* cells; empty where the repository has no row. */
  supports: z.object({ cpu: z.string(), single_gpu: z.string(), multi_gpu: z.string() }),
  c0: z.object({
    /** Missing packages as pyright's results.json counts them (capped at the reported total). */
    missing: z.number().int().nullable(),
    /** pyright's own total (results.json, else imports_detected.json). */
    total_reported: z.number().int().nullable(),
    /** baseline_imports.json's total. */
    total_baseline: z.number().int().nullable(),
  }),
  status: z.object({ c1: z.string(), c2: z.string(), c3: z.string(), c4: z.string() }),
  c5: z.object({ path: z.number().int(), version: z.number().int(), capability: z.number().int() }),
  /** agent_end - agent_start, rounded to 3 decimals; null where either is absent. */
  agent_wall_time_sec: z.number().nullable(),
  /** env_size's env_prefix_size_MB, rounded to 3 decimals. */
  env_prefix_size_mb: z.number().nullable(),
});
export type ResearchEnvBenchRaw = z.infer<typeof ResearchEnvBenchRaw>;

/** The record's upstream values, where it was imported from ResearchEnvBench and they are well formed. */
export function researchEnvBenchRaw(record: ReadinessRecord): ResearchEnvBenchRaw | null {
  const parsed = ResearchEnvBenchRaw.safeParse(record.upstream?.researchenvbench);
  return parsed.success ? parsed.data : null;
}

/** Upstream's _is_supported: anything but no/n/false/0, a blank (no categories row) included, is supported. */
export function upstreamSupported(cell: string): boolean {
  return !['no', 'n', 'false', '0'].includes(cell.trim().toLowerCase());
}
