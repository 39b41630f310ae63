import { ApplicationFailure, CancelledFailure, type ChildWorkflowFailure, TerminatedFailure, TimeoutFailure } from '@temporalio/workflow';
import { capMessage } from '../text/excerpt';

/**
 * The harness error of an instance whose child workflow ended without a record of its own (failed,
 * terminated, timed out or cancelled on its own): its study records it, so the instance is counted,
 * exported and found by `retry-errors`.
 */
export function childFailureError(err: ChildWorkflowFailure): { kind: string; message: string } {
  return { kind: childFailureKind(err), message: capMessage(`instance workflow ended without a record: ${err.cause?.message ?? err.message}`) };
}

function childFailureKind(err: ChildWorkflowFailure): string {
  const cause = err.cause;
  if (cause instanceof TerminatedFailure) return 'InstanceTerminated';
  if (cause instanceof TimeoutFailure) return 'InstanceTimedOut';
  if (cause instanceof CancelledFailure) return 'InstanceCancelled';
  if (cause instanceof ApplicationFailure && cause.type) return cause.type;
  return 'InstanceFailed';
}
