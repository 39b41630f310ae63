import type { C0Result, C5Result, ReadinessRecord, SessionOutcome, StageResult } from '../domain/readiness';
import type { ReadinessInstanceInput } from '../domain/readinessStudy';
import type { SetupPrecision } from '../domain/setupPrecision';
import { skipped } from './stages';

export interface ReadinessObservations {
  session: SessionOutcome | null;
  report: ReadinessRecord['report'];
  reportProblem: string | null;
  violations: ReadinessRecord['violations'];
  stages: Partial<ReadinessRecord['stages']>;
  /** The prepare stage, where the repository has one and it ran. */
  prepare?: StageResult;
  envSizeBytes: number | null;
  gpu: ReadinessRecord['gpu'];
  error: ReadinessRecord['error'];
  /** Setup precision, where it was measured (or its measurement failed). */
  setupPrecision?: SetupPrecision;
}

/** Before anything was observed. */
export function nothingObserved(): ReadinessObservations {
  return { session: null, report: null, reportProblem: null, violations: [], stages: {}, envSizeBytes: null, gpu: null, error: null };
}

const noC0 = (): C0Result => ({ ...skipped('session_failed'), total: 0, missing: [] });
const noC5 = (): C5Result => ({ ...skipped('session_failed'), path: 0, version: 0, capability: 0, findings: [] });

/** The record of one readiness instance; stages never reached are skipped as session_failed. */
export function buildReadinessRecord(input: ReadinessInstanceInput, o: ReadinessObservations): ReadinessRecord {
  const s = o.stages;
  const stage = (r: StageResult | undefined) => r ?? skipped('session_failed');
  return {
    schema: 'envgap.readiness/v1',
    study: input.study,
    agent: input.agent.name,
    repo: input.repo.id,
    trial: input.trial,
    supports: input.repo.supports,
    status: o.error ? 'error' : 'completed',
    session: o.session,
    report: o.report,
    report_problem: o.reportProblem,
    violations: o.violations,
    ...(o.prepare ? { prepare: o.prepare } : {}),
    stages: { c0: s.c0 ?? noC0(), c1: stage(s.c1), c2: s.c2 ?? { ...skipped('session_failed'), observed: null }, c3: stage(s.c3), c4: stage(s.c4), c5: s.c5 ?? noC5() },
    env_size_bytes: o.envSizeBytes,
    time_to_ready_s: o.session?.wall_s ?? null,
    gpu: o.gpu,
    error: o.error,
    ...(o.setupPrecision ? { setup_precision: o.setupPrecision } : {}),
  };
}
