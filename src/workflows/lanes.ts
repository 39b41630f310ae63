import { ChildWorkflowFailure, executeChild, ParentClosePolicy, WorkflowIdReusePolicy, type Workflow } from '@temporalio/workflow';
import type { StudyCarry, StudyProgress } from './engine';

/** What the README and readiness instance workflows end with: their record holds the rest. */
export type ProtocolStatus = 'completed' | 'error';
export type ProtocolCarry = StudyCarry<ProtocolStatus>;

export interface ProtocolStudySummary {
  study: string;
  done: number;
  counts: Record<ProtocolStatus, number>;
  progress: StudyProgress<ProtocolStatus>;
}

/**
 * One instance of the README or readiness protocol as a child workflow (id = the instance's id, so a
 * re-run finds it). A child that fails outright counts as an error; the instance workflows record
 * their own harness errors and return a status.
 */
export async function runProtocolChild<I extends { instanceId: string }>(child: (input: I) => Promise<{ status: ProtocolStatus }>, inst: I): Promise<{ status: ProtocolStatus }> {
  try {
    const r = await executeChild(child as unknown as Workflow, {
      workflowId: inst.instanceId,
      args: [inst],
      parentClosePolicy: ParentClosePolicy.TERMINATE,
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
    });
    return { status: (r as { status: ProtocolStatus }).status };
  } catch (err) {
    if (!(err instanceof ChildWorkflowFailure)) throw err;
    return { status: 'error' };
  }
}
