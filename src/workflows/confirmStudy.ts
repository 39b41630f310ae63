import {
  CancellationScope,
  ChildWorkflowFailure,
  continueAsNew,
  executeChild,
  isCancellation,
  ParentClosePolicy,
  proxyActivities,
  WorkflowIdReusePolicy,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { confirmationTimeoutS } from '../domain/activityTimeouts';
import { confirmInstanceId } from '../domain/confirmation/ids';
import type { ConfirmationFields } from '../domain/confirmation/types';
import { expandStudy, type ContainerLimits, type StudyInput } from '../domain/study';
import { confirmPhantoms } from './confirmPhantoms';
import { STUDY_HISTORY_LIMIT, StudyEngine, type StudyCarry, type StudyProgress } from './engine';

/**
 * Phantom confirmation added to a finished study (`envgap study confirm-phantoms NAME`): every
 * instance of the study as a child workflow of its own (`<instance id>/confirm-phantoms`), on the
 * study engine (concurrency, pause and resume, continue-as-new), each confirming its instance from
 * what the database holds and updating its record.
 */

export type ConfirmStatus = 'confirmed' | 'skipped' | 'error';

export interface ConfirmStudyInput {
  /** The study as it was started (its stored spec). */
  study: StudyInput;
  maxTrials: number;
  /** Confirm again instances whose records have a confirmation already. */
  again?: boolean;
  historyLimit?: number;
}

export interface ConfirmInstanceInput {
  instanceId: string;
  maxTrials: number;
  again?: boolean;
}

export interface ConfirmInstanceOutcome {
  instanceId: string;
  status: ConfirmStatus;
  /** Where confirmed: its verdicts. */
  phantomCheck?: ConfirmationFields['phantom_check'];
  bloatCheck?: ConfirmationFields['bloat_check'];
  error?: string;
}

export interface ConfirmStudySummary {
  study: string;
  progress: StudyProgress<ConfirmStatus>;
}

const retry = { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 3 };

export async function confirmStudyWorkflow(input: ConfirmStudyInput, carry?: StudyCarry<ConfirmStatus>): Promise<ConfirmStudySummary> {
  const instances = expandStudy(input.study).map((i) => ({ instanceId: i.instanceId, limits: i.limits }));
  const engine = new StudyEngine(instances, { confirmed: 0, skipped: 0, error: 0 }, carry);
  const next = await engine.run(input.study.concurrency, input.historyLimit ?? STUDY_HISTORY_LIMIT, async (inst) => ({ status: (await confirmChild(inst, input)).status }));
  if (next) await continueAsNew<typeof confirmStudyWorkflow>(input, next);
  return { study: input.study.name, progress: engine.progress };
}

async function confirmChild(inst: { instanceId: string; limits: ContainerLimits }, input: ConfirmStudyInput): Promise<ConfirmInstanceOutcome> {
  try {
    return await executeChild(confirmInstanceWorkflow, {
      workflowId: confirmInstanceId(inst.instanceId),
      args: [{ instanceId: inst.instanceId, maxTrials: input.maxTrials, ...(input.again ? { again: true } : {}) }],
      parentClosePolicy: ParentClosePolicy.TERMINATE,
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      workflowExecutionTimeout: (confirmationTimeoutS(inst.limits, input.maxTrials) + 600) * 1000,
    });
  } catch (err) {
    if (!(err instanceof ChildWorkflowFailure) || (isCancellation(err) && CancellationScope.current().consideredCancelled)) throw err;
    return { instanceId: inst.instanceId, status: 'error', error: err.cause?.message ?? err.message };
  }
}

/** One instance's confirmation: what the database holds of it, the trials, its record updated. Skipped where there is nothing to confirm. */
export async function confirmInstanceWorkflow(input: ConfirmInstanceInput): Promise<ConfirmInstanceOutcome> {
  const { confirmationSubject, storeConfirmation } = proxyActivities<Activities>({ startToCloseTimeout: '2 minutes', retry });
  const subject = await confirmationSubject({ instanceId: input.instanceId, ...(input.again ? { again: true } : {}) });
  if (!subject) return { instanceId: input.instanceId, status: 'skipped' };
  const fields = await confirmPhantoms(confirmInstanceId(input.instanceId), subject, input.maxTrials);
  await storeConfirmation({ instanceId: input.instanceId, fields });
  return {
    instanceId: input.instanceId,
    status: fields.confirmation.error ? 'error' : 'confirmed',
    ...(fields.phantom_check ? { phantomCheck: fields.phantom_check } : {}),
    ...(fields.bloat_check ? { bloatCheck: fields.bloat_check } : {}),
    ...(fields.confirmation.error ? { error: fields.confirmation.error } : {}),
  };
}
