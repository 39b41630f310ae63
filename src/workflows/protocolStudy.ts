import { CancellationScope, ChildWorkflowFailure, continueAsNew, executeChild, isCancellation, ParentClosePolicy, patched, WorkflowIdReusePolicy, type Workflow } from '@temporalio/workflow';
import { ENDPOINT_FAILURE_TYPES } from '../domain/endpointFaults';
import { childFailureError } from './childFailure';
import { STUDY_HISTORY_LIMIT, StudyEngine, type StudyCarry, type StudyProgress } from './engine';

/** What the README and readiness instance workflows end with: their record holds the rest. */
export type ProtocolStatus = 'completed' | 'error';
export type ProtocolCarry = StudyCarry<ProtocolStatus>;

export interface ProtocolStudySummary {
  study: string;
  done: number;
  counts: Record<ProtocolStatus, number>;
  progress: StudyProgress<ProtocolStatus>;
}

/** Studies before it counted a child that ended without a record as an error, and recorded nothing. */
const RECORD_CHILD_FAILURE = 'protocol-child-failure-recorded';

/** An instance's end where its agent's endpoint refused the key: why the study starts no more instances of that agent. */
export function configErrorOf(agent: string, error: { kind: string; message: string } | null | undefined): { configError?: string } {
  return error?.kind === ENDPOINT_FAILURE_TYPES.auth ? { configError: `${agent}: ${error.message}` } : {};
}

/** Records an instance whose child workflow ended without its own record, as a harness error. */
export type RecordChildFailure<I> = (inst: I, error: { kind: string; message: string }) => Promise<void>;

/**
 * One instance of the README or readiness protocol as a child workflow (id = the instance's id, so a
 * re-run finds it). The instance workflows record their own harness errors and return a status; a
 * child that fails, is terminated or is cancelled on its own is recorded here as an error. Only the
 * study's own cancellation ends the study.
 */
export async function runProtocolChild<I extends { instanceId: string }>(
  child: (input: I) => Promise<{ status: ProtocolStatus; configError?: string }>,
  inst: I,
  recordFailure: RecordChildFailure<I>,
): Promise<{ status: ProtocolStatus; stopAgent?: string }> {
  try {
    const r = await executeChild(child as unknown as Workflow, {
      workflowId: inst.instanceId,
      args: [inst],
      parentClosePolicy: ParentClosePolicy.TERMINATE,
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    });
    const end = r as { status: ProtocolStatus; configError?: string };
    return end.configError ? { status: end.status, stopAgent: end.configError } : { status: end.status };
  } catch (err) {
    if (!(err instanceof ChildWorkflowFailure)) throw err;
    if (!patched(RECORD_CHILD_FAILURE)) return { status: 'error' };
    if (isCancellation(err) && CancellationScope.current().consideredCancelled) throw err;
    await recordFailure(inst, childFailureError(err));
    return { status: 'error' };
  }
}

/**
 * A README or readiness study on the study engine: the study recorded once (its first run), every
 * instance a child workflow, at most `concurrency` at a time, with pause, resume, retry-errors and
 * progress; past the history limit a fresh run of the same workflow takes over.
 */
export async function runProtocolStudy<S extends { name: string; concurrency: number; historyLimit?: number }, I extends { instanceId: string; agent: { name: string } }>(
  study: S,
  carry: ProtocolCarry | undefined,
  p: { record: () => Promise<void>; instances: I[]; child: (input: I) => Promise<{ status: ProtocolStatus; configError?: string }>; recordFailure: RecordChildFailure<I> },
): Promise<ProtocolStudySummary> {
  if (!carry) await p.record();
  const engine = new StudyEngine(p.instances, { completed: 0, error: 0 }, carry);
  const next = await engine.run(study.concurrency, study.historyLimit ?? STUDY_HISTORY_LIMIT, (inst) => runProtocolChild(p.child, inst, p.recordFailure), {
    agentOf: (inst) => inst.agent.name,
    skip: async (inst, why) => {
      await p.recordFailure(inst, { kind: ENDPOINT_FAILURE_TYPES.auth, message: `not started: ${why}` });
      return 'error';
    },
  });
  if (next) await continueAsNew(study, next);
  return { study: study.name, done: engine.progress.done, counts: engine.progress.counts, progress: engine.progress };
}
