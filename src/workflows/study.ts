import {
  CancellationScope,
  ChildWorkflowFailure,
  TerminatedFailure,
  TimeoutFailure,
  ApplicationFailure,
  CancelledFailure,
  continueAsNew,
  isCancellation,
  proxyLocalActivities,
  patched,
  defineQuery,
  defineSignal,
  condition,
  executeChild,
  proxyActivities,
  setHandler,
  workflowInfo,
  ParentClosePolicy,
  WorkflowIdReusePolicy,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { HEARTBEAT_TIMEOUT_S, IMAGE_BUILD_TIMEOUT_S, instanceTimeoutS } from '../domain/activityTimeouts';
import { capMessage } from '../text/excerpt';
import { buildInstanceRecord } from '../domain/record';
import type { InstanceRecord, Language } from '../domain/instance';
import { expandStudy, type InstanceInput, type StudyInput } from '../domain/study';
import { instanceWorkflow, type InstanceOutcome } from './instance';

export interface StudyProgress {
  total: number;
  done: number;
  running: string[];
  counts: Record<InstanceRecord['status'], number>;
  /** Paused: running instances finish, no new one starts until resumed (envgap study pause / resume). */
  paused?: boolean;
  /** When the study's first run started (ms since the epoch): throughput and ETA are measured from it. */
  startedAtMs?: number;
  /** Instances asked to run again (envgap study retry-errors), not yet started. */
  retrying?: string[];
  /** The runtime image of each language of the study: prepared before any instance starts. */
  images?: Partial<Record<Language, 'preparing' | 'ready'>>;
}

export interface StudySummary {
  study: string;
  progress: StudyProgress;
  /** The outcomes of this run's instances (a long study spans several runs; the database has all). */
  outcomes: InstanceOutcome[];
}

/** Where a study continued as new: the instances before `next` are done and counted. */
export interface StudyCarry {
  next: number;
  done: number;
  counts: StudyProgress['counts'];
  paused?: boolean;
  startedAtMs?: number;
  retrying?: string[];
}

/** Past this many history events a study hands over to a fresh run, so history stays small. */
export const STUDY_HISTORY_LIMIT = 10_000;

const { recordStudy } = proxyActivities<Activities>({ startToCloseTimeout: '1 minute', retry: { maximumInterval: '1m' } });
const { prepareImage } = proxyActivities<Activities>({
  startToCloseTimeout: IMAGE_BUILD_TIMEOUT_S * 1000,
  heartbeatTimeout: HEARTBEAT_TIMEOUT_S * 1000,
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumAttempts: 3 },
});
const { recordInstance } = proxyLocalActivities<Activities>({ startToCloseTimeout: '1 minute', retry: { maximumInterval: '1m' } });

export const progressQuery = defineQuery<StudyProgress>('progress');
export const pauseSignal = defineSignal('pause');
export const resumeSignal = defineSignal('resume');
/** Instance ids of this study whose record is `error`, to run again in this study (the CLI reads them from the database). */
export const retryErrorsSignal = defineSignal<[string[]]>('retryErrors');

/**
 * A study: first the runtime image of each of its languages (one activity each), then every
 * (agent, language, task, trial) as a child workflow, at most `concurrency` at a time.
 * A long study continues as new when its history grows large: running instances finish first, then
 * a new run takes over the rest with the counts so far.
 */
export async function studyWorkflow(study: StudyInput & { historyLimit?: number }, carry?: StudyCarry): Promise<StudySummary> {
  if (!carry) await recordStudy(study);
  const instances = expandStudy(study);
  const progress: StudyProgress = {
    total: instances.length,
    done: carry?.done ?? 0,
    running: [],
    counts: carry ? { ...carry.counts } : { success: 0, failed: 0, error: 0 },
    paused: carry?.paused ?? false,
    startedAtMs: carry?.startedAtMs ?? workflowInfo().startTime.getTime(),
    retrying: [...(carry?.retrying ?? [])],
  };
  setHandler(progressQuery, () => progress);
  setHandler(pauseSignal, () => void (progress.paused = true));
  setHandler(resumeSignal, () => void (progress.paused = false));
  const byId = new Map(instances.map((inst, i) => [inst.instanceId, i]));
  setHandler(retryErrorsSignal, (ids: string[]) => {
    // Only instances already run (before `next`) and not queued or running again.
    for (const id of ids) {
      const at = byId.get(id);
      if (at !== undefined && at < next && !progress.retrying!.includes(id) && !progress.running.includes(id)) progress.retrying!.push(id);
    }
  });
  // Studies started before images were prepared up front replay without this step.
  if (!carry && patched('prepare-images-first')) await prepareImages(study.languages, progress);
  const outcomes: InstanceOutcome[] = [];
  const handOver = () => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > (study.historyLimit ?? STUDY_HISTORY_LIMIT);

  let next = carry?.next ?? 0;
  const more = () => next < instances.length || progress.retrying!.length > 0;
  const lane = async () => {
    // Every lane starts one instance in every run, so a study always moves on.
    for (let first = true; more() && (first || !handOver()); first = false) {
      if (progress.paused) await condition(() => !progress.paused);
      if (!more()) break;
      const retry = progress.retrying!.shift();
      const inst = retry !== undefined ? instances[byId.get(retry)!]! : instances[next++]!;
      progress.running.push(inst.instanceId);
      const outcome = await runInstance(inst);
      outcomes.push(outcome);
      progress.running = progress.running.filter((id) => id !== inst.instanceId);
      progress.counts[outcome.status]++;
      // A retried instance was counted once already, as an error.
      if (retry !== undefined) progress.counts.error--;
      else progress.done++;
    }
  };
  do {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(study.concurrency, instances.length - next + progress.retrying!.length)) }, lane));
  } while (!handOver() && more());
  if (more()) {
    await continueAsNew<typeof studyWorkflow>(study, { next, done: progress.done, counts: progress.counts, paused: progress.paused, startedAtMs: progress.startedAtMs, retrying: progress.retrying });
  }
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
    const error = { kind: childFailureKind(err), message: capMessage(`instance workflow ended without a record: ${err.cause?.message ?? err.message}`) };
    const record = buildInstanceRecord(inst, { outcomes: [], firstErrorClass: null, declared: null, installed: null, traced: null, tracedBuild: null, tracedDebianPackages: null, error });
    await recordInstance({ input: inst, record });
    return { instanceId: inst.instanceId, status: 'error', repairDepth: null, iterations: 0, firstErrorClass: null };
  }
}

function childFailureKind(err: ChildWorkflowFailure): string {
  const cause = err.cause;
  if (cause instanceof TerminatedFailure) return 'InstanceTerminated';
  if (cause instanceof TimeoutFailure) return 'InstanceTimedOut';
  if (cause instanceof CancelledFailure) return 'InstanceCancelled';
  if (cause instanceof ApplicationFailure && cause.type) return cause.type;
  return 'InstanceFailed';
}
