import { ActivityCancellationType, ActivityFailure, CancellationScope, continueAsNew, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { executeTimeoutS, HEARTBEAT_TIMEOUT_S, IMAGE_BUILD_TIMEOUT_S } from '../domain/activityTimeouts';
import type { ReresolutionStatus } from '../domain/reresolution';
import { expandStudy, type StudyInput } from '../domain/study';
import { STUDY_HISTORY_LIMIT, StudyEngine, type StudyCarry, type StudyProgress } from './engine';

/**
 * A finished study's final manifests re-resolved on a day (`envgap study re-resolve NAME`,
 * docs/resolution.md): every instance of the study, on the study engine (concurrency, pause and
 * resume, continue-as-new), as one activity each that installs and runs its final project again in a
 * fresh sandbox and stores what changed. No agent is asked.
 */

export type ReresolveStatus = ReresolutionStatus | 'skipped' | 'error';

export interface ReresolveStudyInput {
  /** The study as it was started (its stored spec). */
  study: StudyInput;
  /** The day (UTC, YYYY-MM-DD) the CLI started it: the key of what it stores. */
  on: string;
  historyLimit?: number;
}

export interface ReresolveStudySummary {
  study: string;
  on: string;
  progress: StudyProgress<ReresolveStatus>;
}

const retry = { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 3 };

export async function reresolveStudyWorkflow(input: ReresolveStudyInput, carry?: StudyCarry<ReresolveStatus>): Promise<ReresolveStudySummary> {
  const { reresolveInstance } = proxyActivities<Activities>({
    startToCloseTimeout: (executeTimeoutS(input.study.limits) + IMAGE_BUILD_TIMEOUT_S) * 1000,
    heartbeatTimeout: HEARTBEAT_TIMEOUT_S * 1000,
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry,
  });
  const instances = expandStudy(input.study).map((i) => ({ instanceId: i.instanceId }));
  const zero: Record<ReresolveStatus, number> = { same: 0, changed: 0, uninstallable: 0, skipped: 0, error: 0 };
  const engine = new StudyEngine(instances, zero, carry);
  const next = await engine.run(input.study.concurrency, input.historyLimit ?? STUDY_HISTORY_LIMIT, async (inst) => {
    try {
      return await reresolveInstance({ instanceId: inst.instanceId, on: input.on });
    } catch (err) {
      // A harness fault after the retries is this instance's error; a cancelled study stops.
      if (!(err instanceof ActivityFailure) || (isCancellation(err) && CancellationScope.current().consideredCancelled)) throw err;
      return { status: 'error' as const };
    }
  });
  if (next) await continueAsNew<typeof reresolveStudyWorkflow>(input, next);
  return { study: input.study.name, on: input.on, progress: engine.progress };
}
