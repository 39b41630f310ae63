import type { C5Result, ReadinessRecord, StageResult, Support } from '../../domain/readiness';
import { researchEnvBenchRaw } from '../../domain/readinessUpstream';
import { c0Key, type C0Totals } from './c0Totals';
import { summariseSetupPrecision } from './setupPrecision';
import { withStageRates } from './stageRates';
import type { ReadinessGroup, StageCount } from './types';

/** Skips that say nothing about the environment: the stage leaves the denominator. */
export const LEAVING_SKIPS: readonly string[] = ['insufficient_hardware', 'no_gpu_worker', 'gpu_off', 'not_applicable', 'no_entry'];

function leaves(stage: StageResult): boolean {
  return stage.status === 'skipped' && LEAVING_SKIPS.includes(stage.skip_reason ?? '');
}

/**
 * A stage over the completed jobs where it applies, and beside it the same with the jobs that ended in a
 * harness fault counted as failures (those whose own result of the stage leaves the denominator, a
 * skip for want of hardware, stay out under both).
 */
function count(stages: StageResult[], faulted: StageResult[]): StageCount {
  const counted = stages.filter((s) => !leaves(s));
  const success = counted.filter((s) => s.status === 'success').length;
  const skipped = counted.filter((s) => s.status === 'skipped').length;
  const base = { success, applicable: counted.length, failed: counted.length - success - skipped, skipped, excluded: stages.length - counted.length };
  return withStageRates(base, faulted.filter((s) => !leaves(s)).length);
}

function supporting(records: ReadinessRecord[], ...any: Support[]): ReadinessRecord[] {
  return records.filter((r) => any.some((s) => r.supports.includes(s)));
}

/** Missing names; an imported record whose pyright stage gave a count but no names keeps the count. */
function c0Missing(r: ReadinessRecord): number {
  const names = r.stages.c0.missing.length;
  return names === 0 ? (researchEnvBenchRaw(r)?.c0.missing ?? 0) : names;
}

/**
 * Capability hallucinations, less those some upstream validators invent: they read a stage's exit
 * code as `int(x or 1)`, so a multi-GPU run that exited 0 counts as failed and an honest
 * ddp_expected_ok=true as a hallucination.
 */
function capability(r: ReadinessRecord): number {
  const c5: C5Result = r.stages.c5;
  const voided = r.stages.c4.status === 'success' ? c5.findings.filter((f) => f.kind === 'capability' && f.field === 'ddp_expected_ok' && f.claimed === true).length : 0;
  return Math.max(0, c5.capability - voided);
}

function mean(values: number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}

function summarise(baseline: string, all: ReadinessRecord[], totals: C0Totals | null): ReadinessGroup {
  const records = all.filter((r) => r.status !== 'error');
  const faults = all.filter((r) => r.status === 'error');
  const probed = records.filter((r) => r.stages.c0.status === 'success');
  const times = records.map((r) => r.time_to_ready_s).filter((t): t is number => t !== null);
  const sizes = records.map((r) => r.env_size_bytes).filter((s): s is number => s !== null);
  const avgBytes = mean(sizes);
  return {
    baseline,
    jobs: all.length,
    c0: {
      missing: probed.reduce((a, r) => a + c0Missing(r), 0),
      total: probed.reduce((a, r) => a + (totals?.get(c0Key(r.repo)) ?? r.stages.c0.total), 0),
      unknown: records.length - probed.length,
    },
    c1: count(supporting(records, 'cpu').map((r) => r.stages.c1), supporting(faults, 'cpu').map((r) => r.stages.c1)),
    c2: count(supporting(records, 'single_gpu', 'multi_gpu').map((r) => r.stages.c2), supporting(faults, 'single_gpu', 'multi_gpu').map((r) => r.stages.c2)),
    c3: count(supporting(records, 'single_gpu').map((r) => r.stages.c3), supporting(faults, 'single_gpu').map((r) => r.stages.c3)),
    c4: count(supporting(records, 'multi_gpu').map((r) => r.stages.c4), supporting(faults, 'multi_gpu').map((r) => r.stages.c4)),
    c5: {
      path: records.reduce((a, r) => a + r.stages.c5.path, 0),
      version: records.reduce((a, r) => a + r.stages.c5.version, 0),
      capability: records.reduce((a, r) => a + capability(r), 0),
    },
    agent_time_avg_s: mean(times),
    env_size_avg_gb: avgBytes === null ? null : avgBytes / 1024 ** 3,
    agent_time_jobs: times.length,
    env_size_jobs: sizes.length,
    errors: all.length - records.length,
    setup_precision: summariseSetupPrecision(all),
  };
}

/** envgap's own scoring, grouped by agent (docs/readiness.md, "Upstream quirks", for what it fixes). */
export function envgapGroups(records: readonly ReadinessRecord[], totals: C0Totals | null): ReadinessGroup[] {
  const byAgent = new Map<string, ReadinessRecord[]>();
  for (const r of records) byAgent.set(r.agent, [...(byAgent.get(r.agent) ?? []), r]);
  return [...byAgent.keys()].sort().map((agent) => summarise(agent, byAgent.get(agent) ?? [], totals));
}
