import {
  ActivityCancellationType,
  ActivityFailure,
  ApplicationFailure,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { AgentCallInput, AgentCallResult, ExecutionOutcome } from '../activities/types';
import { agentCallTimeoutS, executeTimeoutS, HEARTBEAT_TIMEOUT_S } from '../domain/activityTimeouts';
import type { ErrorClass, InfraError, InstanceRecord } from '../domain/instance';
import { capMessage } from '../text/excerpt';
import { buildInstanceRecord, recordFingerprint, type InstanceObservations } from '../domain/record';
import { finalLayersWanted, iterationOf, withAnswer, withDeclared, withFinalExecution, withIteration, type IterationResult } from '../domain/observations';
import type { InstanceInput } from '../domain/study';

/**
 * D1 extracted while the first execution runs, and D2, D3 and D3-build in one local activity: two
 * workflow round trips fewer per instance. Histories recorded before it replay the old order.
 */
const ONE_EXTRACTION = 'one-extraction-activity';
/** The execution brings D2, D3 and D3-build along (extracted from its artefacts in memory); the extraction activity only where it could not. */
const LAYERS_WITH_EXECUTION = 'layers-with-execution';
/**
 * The first execution brings D1 along too (a local activity scheduled beside it held the workflow task
 * open until it finished), and a replay agent's answer is a local activity (it reads a recording; a
 * task-queue round trip cost more than the call).
 */
const D1_WITH_EXECUTION = 'declared-with-execution-and-local-replay';
/**
 * The execution that ends an instance stores its record with the execution's own (one batched write,
 * no recording activity after it), from the observations the workflow hands it and the same pure
 * steps the workflow applies (src/domain/observations.ts).
 */
const RECORD_WITH_FINAL_EXECUTION = 'final-execution-records-instance';
/**
 * An agent whose answer is read on the worker (replay, static) answers and has its answer executed in
 * one activity (src/activities/answerAndExecute.ts): no workflow task between Gen and Execute. The
 * newest change before instance revisions, asked first of an instance of none: it implies every change
 * before it, so such an instance records one patch marker (each also upserts a search attribute), not
 * five. An instance of revision 1 (INSTANCE_REVISION) records none.
 */
const ANSWER_WITH_EXECUTION = 'answer-with-execution';

const retry = { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 3 };

// Short database-and-CPU steps run as local activities: no task-queue round trip each.
const extraction = proxyLocalActivities<Activities>({ startToCloseTimeout: '5 minutes', retry });
const declaredDependencies = named('declaredDependencies', extraction.declaredDependencies);
const extractLayers = named('extractLayers', extraction.extractLayers);
// The three before extractLayers, for histories recorded before ONE_EXTRACTION.
const installedDependencies = named('installedDependencies', extraction.installedDependencies);
const tracedDependencies = named('tracedDependencies', extraction.tracedDependencies);
const tracedBuildDependencies = named('tracedBuildDependencies', extraction.tracedBuildDependencies);
// Recording retries until the database answers again: a result is never dropped.
const { recordInstance } = proxyLocalActivities<Activities>({ startToCloseTimeout: '1 minute', retry: { maximumInterval: '1m' } });

/**
 * The long activities of one instance, with timeouts from its own input: the agent runs to its own
 * `timeout_s`, an execution to the sum of its step limits. Both heartbeat on a timer, so a dead worker
 * is noticed in HEARTBEAT_TIMEOUT_S; a cancelled instance waits until its container is gone and its
 * agent's processes are dead.
 */
function protocolActivities(input: InstanceInput) {
  const long = { heartbeatTimeout: HEARTBEAT_TIMEOUT_S * 1000, cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED };
  const { callAgent } = proxyActivities<Activities>({
    ...long,
    startToCloseTimeout: agentCallTimeoutS(input.agent) * 1000,
    retry: { ...retry, nonRetryableErrorTypes: ['AgentInputError'] },
  });
  const { executeProject } = proxyActivities<Activities>({ ...long, startToCloseTimeout: executeTimeoutS(input.limits) * 1000, retry });
  const { answerAndExecute } = proxyActivities<Activities>({
    ...long,
    startToCloseTimeout: (agentCallTimeoutS(input.agent) + executeTimeoutS(input.limits)) * 1000,
    retry: { ...retry, nonRetryableErrorTypes: ['AgentInputError'] },
  });
  return { callAgent, executeProject, answerAndExecute };
}

/** The agent call as a local activity, for agents that only read files here (replay, static), in histories from before ANSWER_WITH_EXECUTION. */
function localCallAgent(input: InstanceInput) {
  const { callAgent } = proxyLocalActivities<Activities>({
    startToCloseTimeout: agentCallTimeoutS(input.agent) * 1000,
    retry: { ...retry, nonRetryableErrorTypes: ['AgentInputError'] },
  });
  return named('callAgent', callAgent);
}

export interface InstanceOutcome {
  instanceId: string;
  status: InstanceRecord['status'];
  repairDepth: number | null;
  iterations: number;
  firstErrorClass: ErrorClass | null;
}

/** One iteration as the protocol sees it: the agent's answer, then (if it was a project) its execution. */
interface Iteration {
  success: boolean;
  errorClass: ErrorClass | null;
  /** What Repair is shown: the execution's error output, or why the agent's answer was unusable. */
  error: AgentCallInput['error'];
  /** The project (files hash) and execution, when the answer was a usable project. */
  executed: { filesHash: string; outcome: ExecutionOutcome } | null;
}

/**
 * One instance of the environment gap protocol: Gen, Execute, then Repair with the error up to k
 * times; on success Resolve (D2) and Trace (D3); D1 from the initial manifest M0. An answer that is
 * unusable after its samples is a failed iteration of class AgentOutput, handed to Repair like any error.
 * An agent that gives up (a recording that ends after a failed iteration) ends the loop: `failed`,
 * with the iterations it has.
 */
export async function instanceWorkflow(input: InstanceInput): Promise<InstanceOutcome> {
  const { callAgent: queuedCallAgent, executeProject, answerAndExecute } = protocolActivities(input);
  // An instance of revision 1 or later was started for all of these changes: no patch is asked (src/domain/study.ts).
  const latest = (input.revision ?? 0) >= 1 || patched(ANSWER_WITH_EXECUTION);
  const fewerRoundTrips = latest || patched(D1_WITH_EXECUTION);
  const finalExecutionRecords = latest || (fewerRoundTrips && patched(RECORD_WITH_FINAL_EXECUTION));
  // A recording read back, or an import scan of one (static): short, on this worker's machine, no network.
  const answersHere = input.agent.kind === 'replay' || input.agent.kind === 'static';
  const answerWithExecution = latest && answersHere;
  const callAgent = fewerRoundTrips && answersHere ? localCallAgent(input) : queuedCallAgent;
  let obs: InstanceObservations = {
    outcomes: [], firstErrorClass: null, declared: null, installed: null, traced: null, tracedBuild: null, tracedDebianPackages: null, error: null,
    humanIterations: [], gaveUp: false,
  };
  const agentCall = { instanceId: input.instanceId, agent: input.agent, task: input.task, language: input.language, trial: input.trial, budget: input.budget };

  let lastProject: string | null = null;
  let lastExecuted: Iteration['executed'] = null;
  /** One iteration; null when the agent gave up (it has no further answer). */
  const iterate = async (iteration: number, error: AgentCallInput['error']): Promise<Iteration | null> => {
    const call = { ...agentCall, iteration, previousFilesHash: lastProject, error };
    const execute = { instanceId: input.instanceId, iteration, language: input.language, limits: input.limits, ...(obs.declared === null && fewerRoundTrips ? { declare: true } : {}) };
    // What the instance observed so far, for the execution that ends it to store its record with.
    const observed = () => (finalExecutionRecords ? { instance: { input, observations: obs } } : {});
    const answered: { answer: AgentCallResult; outcome: ExecutionOutcome | null } = answerWithExecution
      ? await answerAndExecute({ call, execute: { ...execute, ...observed() } })
      : { answer: await callAgent(call), outcome: null };
    const { answer } = answered;
    if (answer.kind === 'gave-up') return null;
    if (answer.kind === 'unusable') {
      return { success: false, errorClass: 'AgentOutput', error: { class: 'AgentOutput', hash: answer.errorHash }, executed: null };
    }
    lastProject = answer.filesHash;
    obs = withAnswer(obs, iteration, answer);
    // D1 is read from M0, or from the first usable manifest when Gen's answer was unusable.
    const d1Input = { language: input.language, filesHash: answer.filesHash };
    const keepD1 = (d1: Awaited<ReturnType<typeof declaredDependencies>>) => {
      obs = withDeclared(obs, d1);
    };
    let declaring: ReturnType<typeof declaredDependencies> | null = null;
    if (obs.declared === null && !fewerRoundTrips) {
      if (!patched(ONE_EXTRACTION)) keepD1(await declaredDependencies(d1Input));
      else {
        declaring = declaredDependencies(d1Input);
        // Awaited after the execution; a failure there still reaches the catch below.
        declaring.catch(() => undefined);
      }
    }
    const outcome = answered.outcome ?? (await executeProject({ ...execute, filesHash: answer.filesHash, ...(answer.run ? { run: answer.run } : {}), ...observed() }));
    if (declaring) keepD1(await declaring);
    if (execute.declare) keepD1(outcome.declared ?? (await declaredDependencies(d1Input)));
    lastExecuted = { filesHash: answer.filesHash, outcome };
    return {
      success: outcome.success,
      errorClass: outcome.errorClass,
      error: outcome.errorHash ? { class: outcome.errorClass, hash: outcome.errorHash } : null,
      executed: lastExecuted,
    };
  };

  try {
    // An agent that gives no first answer at all gave up at once: failed, with no iteration.
    let it = await iterate(0, null);
    if (!it) obs.gaveUp = true;
    else obs = withIteration(obs, 0, resultOf(it));
    for (let i = 1; it && !it.success && i <= input.budget; i++) {
      const next = await iterate(i, it.error);
      if (!next) {
        obs.gaveUp = true;
        break;
      }
      it = next;
      obs = withIteration(obs, i, resultOf(it));
    }

    const ran = lastExecuted as Iteration['executed'];
    if (ran) {
      const final = { language: input.language, filesHash: ran.filesHash, artefacts: ran.outcome.artefacts };
      const succeeded = Boolean(it?.success);
      // Resolve(Mk) -> D2 where the install ran; Trace(Ck) -> D3 and D3-build where the run succeeded.
      const want = finalLayersWanted(ran.outcome, succeeded);
      if (latest || patched(ONE_EXTRACTION)) {
        const brought = latest || patched(LAYERS_WITH_EXECUTION) ? ran.outcome.layers : undefined;
        const layers = want.installed || want.traced ? (brought ?? (await extractLayers({ ...final, ...want }))) : null;
        obs = withFinalExecution(obs, ran.outcome, succeeded, layers, brought !== undefined);
      } else {
        obs = withFinalExecution(obs, ran.outcome, succeeded, null, false);
        if (want.installed) obs.installed = await installedDependencies(final);
        if (succeeded) {
          const traced = await tracedDependencies(final);
          obs.traced = traced.names;
          obs.tracedDebianPackages = traced.debianPackages;
          obs.tracedBuild = await tracedBuildDependencies({ ...final, installed: obs.installed ?? [] });
        }
      }
    }
  } catch (err) {
    // A cancelled instance ends cancelled, unrecorded; its activities have removed their containers.
    if (isCancellation(err)) throw err;
    obs.error = infrastructureError(err);
  }
  const record = buildInstanceRecord(input, obs);
  // Stored already where the final execution stored this very record; anything else is stored here.
  const stored = finalExecutionRecords && (lastExecuted as Iteration['executed'])?.outcome.recorded;
  if (!stored || stored.fingerprint !== recordFingerprint(record)) await recordInstance({ input, record });
  return {
    instanceId: input.instanceId,
    status: record.status,
    repairDepth: record.repair_depth,
    iterations: obs.outcomes.length,
    firstErrorClass: record.first_error_class,
  };
}

/** A local activity's final failure, with the activity's name (its failure arrives unwrapped, with none). */
class LocalActivityFault extends Error {
  constructor(
    readonly activityType: string,
    readonly failure: ApplicationFailure,
  ) {
    super(`${activityType}: ${failure.message}`);
  }
}

function named<I, O>(activityType: string, activity: (input: I) => Promise<O>): (input: I) => Promise<O> {
  return (input) =>
    activity(input).catch((err: unknown) => {
      throw err instanceof ApplicationFailure ? new LocalActivityFault(activityType, err) : err;
    });
}

/** Activities that failed after their retries are faults of the harness or its machines, not of the agent. */
function infrastructureError(err: unknown): InfraError {
  if (err instanceof ActivityFailure) {
    const cause = err.cause;
    const kind = cause instanceof ApplicationFailure && cause.type ? cause.type : (cause?.name ?? 'ActivityFailure');
    return { kind, message: capMessage(`${err.activityType}: ${cause?.message ?? err.message}`) };
  }
  if (err instanceof LocalActivityFault) return { kind: err.failure.type ?? 'Error', message: capMessage(err.message) };
  throw err;
}

/** An iteration as the record counts it: an execution's own result, or an unusable answer's. */
function resultOf(it: Iteration): IterationResult {
  return it.executed ? iterationOf(it.executed.outcome) : { success: it.success, errorClass: it.errorClass };
}
