import type { ReadinessRecord } from '../../domain/readiness';
import { upstreamSupported, type ResearchEnvBenchRaw } from '../../domain/readinessUpstream';
import { upstreamC0Total, type C0Totals } from './c0Totals';
import { pythonRound } from './pythonRound';
import type { ReadinessGroup, StageCount } from './types';
import { upstreamRow } from './upstreamRows';

/** Python's str comparison (code points); the same as < for the names these files hold. */
function compare(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/** _count_statuses: skipped stays in the denominator; missing and any other word are failures. */
function count(statuses: string[]): StageCount {
  const success = statuses.filter((s) => s === 'success').length;
  const skipped = statuses.filter((s) => s === 'skipped').length;
  return { success, applicable: statuses.length, failed: statuses.length - success - skipped, skipped, excluded: 0 };
}

// Left to right, as Python 3.11's sum() adds floats (3.12 compensates; the last bit may differ).
function mean(values: number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

function summarise(runId: string, baseline: string, rows: { raw: ResearchEnvBenchRaw; record: ReadinessRecord }[], totals: C0Totals): ReadinessGroup {
  const raws = rows.map((r) => r.raw);
  const supported = (s: keyof ResearchEnvBenchRaw['supports']) => raws.filter((r) => upstreamSupported(r.supports[s]));
  const times = raws.map((r) => r.agent_wall_time_sec).filter((t): t is number => t !== null);
  const sizes = raws.map((r) => r.env_prefix_size_mb).filter((s): s is number => s !== null);
  const sum = (f: (r: ResearchEnvBenchRaw) => number) => raws.reduce((acc, r) => acc + f(r), 0);
  return {
    baseline,
    run_id: runId,
    jobs: raws.length,
    c0: {
      missing: sum((r) => r.c0.missing ?? 0),
      total: sum((r) => upstreamC0Total(r.repo_full_name, r.c0, totals)),
      unknown: rows.filter((r) => r.record.stages.c0.status !== 'success').length,
    },
    c1: count(supported('cpu').map((r) => r.status.c1)),
    c2: count(raws.map((r) => r.status.c2)),
    c3: count(supported('single_gpu').map((r) => r.status.c3)),
    c4: count(supported('multi_gpu').map((r) => r.status.c4)),
    c5: { path: sum((r) => r.c5.path), version: sum((r) => r.c5.version), capability: sum((r) => r.c5.capability) },
    agent_time_avg_s: times.length > 0 ? pythonRound(mean(times), 2) : null,
    env_size_avg_gb: sizes.length > 0 ? pythonRound(mean(sizes) / 1024, 3) : null,
    agent_time_jobs: times.length,
    env_size_jobs: sizes.length,
    errors: 0,
  };
}

/** build_summary_rows of m5/build_master_table.py over the records, quirks kept (docs/readiness.md). */
export function upstreamGroups(records: readonly ReadinessRecord[], totals: C0Totals): ReadinessGroup[] {
  const rows = records
    .map((record) => ({ record, raw: upstreamRow(record) }))
    .sort((a, b) => compare([a.raw.repo_full_name, a.raw.baseline, a.raw.job_id], [b.raw.repo_full_name, b.raw.baseline, b.raw.job_id]));
  const groups = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = JSON.stringify([row.raw.run_id, row.raw.baseline]);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.entries()]
    .map(([key, members]) => {
      const [runId, baseline] = JSON.parse(key) as [string, string];
      return summarise(runId, baseline, members, totals);
    })
    .sort((a, b) => compare([a.run_id ?? '', a.baseline], [b.run_id ?? '', b.baseline]));
}
