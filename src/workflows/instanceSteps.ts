import { ActivityCancellationType, ActivityFailure, ApplicationFailure, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { AgentCallInput, AgentCallResult, ExecutionOutcome } from '../activities/types';
import { agentCallTimeoutS, executeTimeoutS, HEARTBEAT_TIMEOUT_S } from '../domain/activityTimeouts';
import { ENDPOINT_FAILURE_TYPES } from '../domain/endpointFaults';
import type { InfraError } from '../domain/instance';
import { withAnswer } from '../domain/observations';
import type { InstanceObservations } from '../domain/record';
import type { InstanceInput } from '../domain/study';
import { capMessage } from '../text/excerpt';

// The activities of one instance of the environment gap protocol (src/workflows/instance.ts).

const retry = { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 3 };

/** Storing a record retries until the database answers again: a result is never dropped. */
export const { recordInstance } = proxyLocalActivities<Activities>({ startToCloseTimeout: '1 minute', retry: { maximumInterval: '1m' } });

/** One iteration's answer and, where it was a project, its execution. */
export type Attempt =
  | { answer: Extract<AgentCallResult, { kind: 'unusable' | 'gave-up' }>; outcome: null }
  | { answer: Exclude<AgentCallResult, { kind: 'unusable' | 'gave-up' }>; outcome: ExecutionOutcome };

export interface IterationAsked {
  iteration: number;
  /** The last usable project, which Repair revises (null at Gen, and after unusable answers only). */
  previousFilesHash: string | null;
  /** The agent's session to continue (a preset with memory), or null. */
  previousSessionHash: string | null;
  /** What Repair is shown: the previous iteration's error output, or why its answer was unusable. */
  error: AgentCallInput['error'];
  /** What the instance observed before this iteration: the execution that ends it stores the record from it. */
  observed: InstanceObservations;
}

/**
 * Gen or Repair, then Execute in a clean container. The execution brings along D1 where it is asked
 * (the first usable project) and the layers its run yields (D2, D3, D3-build). An agent whose answer
 * is read on the worker (a replay recording, the static baseline's import scan) answers in the
 * activity that executes its answer (src/activities/answerAndExecute.ts): no workflow task between
 * the two. Any other agent has an activity of its own on the task queue. The agent runs to its own
 * `timeout_s`, an execution to the sum of its step limits; both heartbeat, so a dead worker is
 * noticed in HEARTBEAT_TIMEOUT_S, and a cancelled instance waits until its container is gone and its
 * agent's processes are dead.
 */
export function protocolSteps(input: InstanceInput): (asked: IterationAsked) => Promise<Attempt> {
  const long = { heartbeatTimeout: HEARTBEAT_TIMEOUT_S * 1000, cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED };
  const agentRetry = { ...retry, nonRetryableErrorTypes: ['AgentInputError', ENDPOINT_FAILURE_TYPES.auth, ENDPOINT_FAILURE_TYPES.unresponsive] };
  const [agentS, executeS] = [agentCallTimeoutS(input.agent), executeTimeoutS(input.limits)];
  const { callAgent } = proxyActivities<Activities>({ ...long, startToCloseTimeout: agentS * 1000, retry: agentRetry });
  const { executeProject } = proxyActivities<Activities>({ ...long, startToCloseTimeout: executeS * 1000, retry });
  const { answerAndExecute } = proxyActivities<Activities>({ ...long, startToCloseTimeout: (agentS + executeS) * 1000, retry: agentRetry });
  const answersHere = input.agent.kind === 'replay' || input.agent.kind === 'static';
  const { instanceId, agent, task, language, trial, budget, limits } = input;
  // Absent in instances of studies started before it existed, whose calls stay as they were.
  const told = input.promptEnvironment ? { promptEnvironment: input.promptEnvironment } : {};
  // Only an input's payload: the commands stay the same, so no patch is asked.
  const dated = input.resolveAsOf ? { resolveAsOf: input.resolveAsOf } : {};

  return async ({ iteration, previousFilesHash, previousSessionHash, error, observed }) => {
    const call = { instanceId, agent, task, language, trial, budget, iteration, previousFilesHash, error, ...(previousSessionHash ? { previousSessionHash } : {}), ...told };
    const execute = { instanceId, iteration, language, limits, ...(observed.declared === null ? { declare: true } : {}), ...dated };
    if (answersHere) return (await answerAndExecute({ call, execute: { ...execute, instance: { input, observations: observed } } })) as Attempt;
    const answer = await callAgent(call);
    if (answer.kind === 'unusable' || answer.kind === 'gave-up') return { answer, outcome: null };
    const instance = { input, observations: withAnswer(observed, iteration, answer) };
    return { answer, outcome: await executeProject({ ...execute, filesHash: answer.filesHash, ...(answer.run ? { run: answer.run } : {}), instance }) };
  };
}

/** An activity that failed after its retries is a fault of the harness or its machines, not of the agent. */
export function infrastructureError(err: unknown): InfraError {
  if (!(err instanceof ActivityFailure)) throw err;
  const cause = err.cause;
  const kind = cause instanceof ApplicationFailure && cause.type ? cause.type : (cause?.name ?? 'ActivityFailure');
  return { kind, message: capMessage(`${err.activityType}: ${cause?.message ?? err.message}`) };
}
