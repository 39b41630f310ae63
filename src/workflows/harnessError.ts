import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { capMessage } from '../text/excerpt';

/** What a harness fault that ended an instance was (the failing activity and its cause), for its record; anything else is rethrown. */
export function harnessError(err: unknown): { kind: string; message: string } {
  if (err instanceof ActivityFailure) {
    const cause = err.cause;
    const kind = cause instanceof ApplicationFailure && cause.type ? cause.type : (cause?.name ?? 'ActivityFailure');
    return { kind, message: capMessage(`${err.activityType}: ${cause?.message ?? err.message}`) };
  }
  if (err instanceof ApplicationFailure) return { kind: err.type ?? 'Error', message: capMessage(err.message) };
  throw err;
}
