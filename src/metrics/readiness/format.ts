import { formatTable } from '../../text/table';
import { toCsv, type CsvValue } from '../csvText';
import { SETUP_KINDS } from '../../domain/setupPrecision';
import type { SetupPrecisionSummary } from './setupPrecision';
import type { ReadinessGroup, ReadinessMetrics, StageCount } from './types';

const STAGES = ['c1', 'c2', 'c3', 'c4'] as const;

/** `2/3`, and where jobs of the stage ended in a harness fault, the same with them counted as failures: `2/3 (2/4 with faults)`. */
function ratio(c: StageCount): string {
  const faults = c.harness_errors ?? 0;
  return `${c.success}/${c.applicable}${faults > 0 ? ` (${c.success}/${c.applicable + faults} with faults)` : ''}`;
}

function fixed(value: number | null, digits: number): string | null {
  return value === null ? null : value.toFixed(digits);
}

/** The mean setup precision, and where there were harness faults, the same with them counted as 0: `0.67 (0.50 with faults)`. */
function setupCell(s: SetupPrecisionSummary | undefined): string {
  if (!s || (s.mean === null && s.harness_errors === 0)) return '-';
  const faults = s.harness_errors > 0 ? ` (${fixed(s.mean_errors_as_failures, 2)} with faults)` : '';
  return `${fixed(s.mean, 2) ?? '-'}${faults}`;
}

/** One line per group: C0 missing/total, C1-C4 successes/denominator, C5 path/version/capability; envgap mode adds the mean setup precision. */
export function formatReadinessTable(metrics: ReadinessMetrics): string {
  const upstream = metrics.mode === 'upstream';
  const headers = [...(upstream ? ['run'] : []), 'baseline', 'jobs', 'C0 missing', 'C1 cpu', 'C2 cuda', 'C3 1gpu', 'C4 ngpu', 'C5 p/v/c', 'time s', 'env GB', ...(upstream ? [] : ['setup prec'])];
  const rows = metrics.groups.map((g: ReadinessGroup) => [
    ...(upstream ? [g.run_id ?? ''] : []),
    g.baseline,
    g.jobs,
    `${g.c0.missing}/${g.c0.total}${g.c0.unknown > 0 ? ` (${g.c0.unknown} ${upstream ? 'failed' : 'unknown'})` : ''}`,
    ...STAGES.map((s) => ratio(g[s])),
    `${g.c5.path}/${g.c5.version}/${g.c5.capability}`,
    fixed(g.agent_time_avg_s, 2),
    fixed(g.env_size_avg_gb, 3),
    ...(upstream ? [] : [setupCell(g.setup_precision)]),
  ]);
  return `readiness (${metrics.mode} scoring)\n${formatTable(headers, rows)}\n`;
}

const CSV_HEADERS = [
  'mode', 'run_id', 'baseline', 'jobs', 'errors', 'c0_missing', 'c0_total', 'c0_unknown',
  ...STAGES.flatMap((s) => [
    `${s}_success`, `${s}_applicable`, `${s}_failed`, `${s}_skipped`, `${s}_excluded`,
    `${s}_harness_errors`, `${s}_rate`, `${s}_rate_errors_as_failures`, `${s}_rate_errors_delta`,
  ]),
  'c5_path', 'c5_version', 'c5_capability', 'agent_time_avg_s', 'agent_time_jobs', 'env_size_avg_gb', 'env_size_jobs',
  'setup_precision_mean', 'setup_precision_jobs', 'setup_precision_undefined_jobs', 'setup_precision_harness_errors',
  'setup_precision_mean_errors_as_failures', 'setup_precision_mean_errors_delta', ...SETUP_KINDS.map((k) => `setup_precision_${k}`),
];

/** One row per group, every count in its own column; averages unrounded beyond what the mode rounds. */
export function readinessToCsv(metrics: ReadinessMetrics): string {
  const rows = metrics.groups.map((g): CsvValue[] => [
    metrics.mode, g.run_id ?? null, g.baseline, g.jobs, g.errors, g.c0.missing, g.c0.total, g.c0.unknown,
    ...STAGES.flatMap((s) => [
      g[s].success, g[s].applicable, g[s].failed, g[s].skipped, g[s].excluded,
      g[s].harness_errors ?? null, g[s].rate ?? null, g[s].rate_errors_as_failures ?? null, g[s].rate_errors_delta ?? null,
    ]),
    g.c5.path, g.c5.version, g.c5.capability, g.agent_time_avg_s, g.agent_time_jobs, g.env_size_avg_gb, g.env_size_jobs,
    ...setupColumns(g.setup_precision),
  ]);
  return toCsv(CSV_HEADERS, rows);
}

function setupColumns(s: SetupPrecisionSummary | undefined): CsvValue[] {
  if (!s) return [null, null, null, null, null, null, ...SETUP_KINDS.map(() => null)];
  return [s.mean, s.jobs, s.undefined_jobs, s.harness_errors, s.mean_errors_as_failures, s.mean_errors_delta, ...SETUP_KINDS.map((k) => s.by_kind[k])];
}
