import {
  CancellationScope,
  ChildWorkflowFailure,
  continueAsNew,
  isCancellation,
  proxyLocalActivities,
  patched,
  executeChild,
  proxyActivities,
  ParentClosePolicy,
  WorkflowIdReusePolicy,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { HEARTBEAT_TIMEOUT_S, IMAGE_BUILD_TIMEOUT_S, instanceTimeoutS } from '../domain/activityTimeouts';
import { ENDPOINT_FAILURE_TYPES } from '../domain/endpointFaults';
import { buildInstanceRecord } from '../domain/record';
import type { InstanceRecord, Language } from '../domain/instance';
import { expandStudy, type InstanceInput, type StudyInput } from '../domain/study';
import { STUDY_HISTORY_LIMIT, StudyEngine, type StudyCarry as EngineCarry, type StudyProgress as EngineProgress } from './engine';
import { childFailureError } from './childFailure';
import { instanceWorkflow, type InstanceOutcome } from './instance';

export { STUDY_HISTORY_LIMIT, progressQuery, pauseSignal, resumeSignal, retryErrorsSignal } from './engine';

type GapStatus = InstanceRecord['status'];
export type StudyProgress = EngineProgress<GapStatus>;
export type StudyCarry = EngineCarry<GapStatus>;

export interface StudySummary {
  study: string;
  progress: StudyProgress;
  /** The outcomes of this run's instances (a long study spans several runs; the database has all). */
  outcomes: InstanceOutcome[];
}

const { recordStudy } = proxyActivities<Activities>({ startToCloseTimeout: '1 minute', retry: { maximumInterval: '1m' } });
const { prepareImage } = proxyActivities<Activities>({
  startToCloseTimeout: IMAGE_BUILD_TIMEOUT_S * 1000,
  heartbeatTimeout: HEARTBEAT_TIMEOUT_S * 1000,
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumAttempts: 3 },
});
const { recordInstance } = proxyLocalActivities<Activities>({ startToCloseTimeout: '1 minute', retry: { maximumInterval: '1m' } });

/**
 * A study of the environment gap protocol: first the runtime image of each of its languages (one
 * activity each), then every (agent, language, task, trial) as a child workflow, on the study engine.
 */
export async function studyWorkflow(study: StudyInput & { historyLimit?: number }, carry?: StudyCarry): Promise<StudySummary> {
  if (!carry) await recordStudy(study);
  const engine = new StudyEngine(expandStudy(study), { success: 0, failed: 0, error: 0 }, carry);
  const progress = engine.progress;
  // Studies started before images were prepared up front replay without this step.
  if (!carry && patched('prepare-images-first')) await prepareImages(study.languages, progress);
  const outcomes: InstanceOutcome[] = [];
  const next = await engine.run(
    study.concurrency,
    study.historyLimit ?? STUDY_HISTORY_LIMIT,
    async (inst) => {
      const outcome = await runInstance(inst);
      outcomes.push(outcome);
      return outcome.configError ? { ...outcome, stopAgent: outcome.configError } : outcome;
    },
    { agentOf: (inst) => inst.agent.name, skip: (inst, why) => recordNotStarted(inst, why) },
  );
  if (next) await continueAsNew<typeof studyWorkflow>(study, next);
  return { study: study.name, progress, outcomes };
}

/** Images before instances: a build that takes minutes never runs inside an instance's time limits. */
async function prepareImages(languages: Language[], progress: StudyProgress): Promise<void> {
  progress.images = Object.fromEntries(languages.map((l) => [l, 'preparing']));
  await Promise.all(
    languages.map(async (language) => {
      await prepareImage({ language });
      progress.images![language] = 'ready';
    }),
  );
}

/** An instance of an agent the study stopped starting: its record says why (an `error`, which retry-errors runs again). */
async function recordNotStarted(inst: InstanceInput, why: string): Promise<'error'> {
  const error = { kind: ENDPOINT_FAILURE_TYPES.auth, message: `not started: ${why}` };
  const record = buildInstanceRecord(inst, { outcomes: [], firstErrorClass: null, declared: null, installed: null, traced: null, tracedBuild: null, tracedDebianPackages: null, error });
  await recordInstance({ input: inst, record });
  return 'error';
}

/**
 * One instance as a child workflow. A child that fails, is terminated, times out or is cancelled on its
 * own becomes that instance's `error` record, and the study goes on; only the study's own
 * cancellation ends the study.
 */
async function runInstance(inst: InstanceInput): Promise<InstanceOutcome> {
  try {
    return await executeChild(instanceWorkflow, {
      workflowId: inst.instanceId,
      args: [inst],
      parentClosePolicy: ParentClosePolicy.TERMINATE,
      workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      workflowExecutionTimeout: instanceTimeoutS(inst) * 1000,
    });
  } catch (err) {
    if (!(err instanceof ChildWorkflowFailure) || (isCancellation(err) && CancellationScope.current().consideredCancelled)) throw err;
    // Studies whose failed children failed the study replay as they ran.
    if (!patched('child-failure-recorded')) throw err;
    const error = childFailureError(err);
    const record = buildInstanceRecord(inst, { outcomes: [], firstErrorClass: null, declared: null, installed: null, traced: null, tracedBuild: null, tracedDebianPackages: null, error });
    await recordInstance({ input: inst, record });
    return { instanceId: inst.instanceId, status: 'error', repairDepth: null, iterations: 0, firstErrorClass: null };
  }
}
