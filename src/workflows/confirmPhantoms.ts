import { ActivityCancellationType, ActivityFailure, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { executeTimeoutS, HEARTBEAT_TIMEOUT_S } from '../domain/activityTimeouts';
import { runConfirmation } from '../domain/confirmation/confirm';
import type { ConfirmationFields, ConfirmationSubject } from '../domain/confirmation/types';
import { capMessage } from '../text/excerpt';

const retry = { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 3 };

/**
 * Phantom confirmation of one successful instance (docs/confirmation.md) as workflow code: the
 * confirmation (src/domain/confirmation/confirm.ts) over the plan activity and one `removalTrial`
 * activity per trial (idempotent: its sandbox is named from the owner and the trial's key). An
 * activity that failed after its retries is a harness fault that ends the confirmation; a
 * cancellation goes through.
 */
export async function confirmPhantoms(owner: string, subject: ConfirmationSubject, maxTrials: number): Promise<ConfirmationFields> {
  const { planConfirmation } = proxyActivities<Activities>({ startToCloseTimeout: '5 minutes', retry });
  const { removalTrial } = proxyActivities<Activities>({
    startToCloseTimeout: executeTimeoutS(subject.limits) * 1000,
    heartbeatTimeout: HEARTBEAT_TIMEOUT_S * 1000,
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry,
  });
  return runConfirmation(owner, subject, maxTrials, {
    plan: planConfirmation,
    trial: removalTrial,
    faultOf: (err) => (isCancellation(err) || !(err instanceof ActivityFailure) ? null : capMessage(`${err.activityType}: ${err.cause?.message ?? err.message}`)),
  });
}
