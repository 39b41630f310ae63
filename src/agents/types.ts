import { ApplicationFailure } from '@temporalio/activity';
import type { ProjectFiles } from '../domain/files';
import type { AgentCallFailure, ErrorClass, Language } from '../domain/instance';
import { ENDPOINT_FAILURE_TYPES, type EndpointFault } from '../domain/endpointFaults';
import type { RunSpec } from '../domain/runSpec';

export interface AgentRequest {
  instanceId: string;
  agent: string;
  task: { id: string; title: string; domain: string };
  language: Language;
  trial: number;
  /** 0 = Gen, 1..k = Repair. */
  iteration: number;
  prompt: string;
  previousFiles: ProjectFiles | null;
  error: { class: ErrorClass | null; tail: string } | null;
  /** The agent's session from its previous call, to continue (a preset with memory), or null. */
  session?: Buffer | null;
}

export interface AgentResponse {
  files: ProjectFiles;
  tokensIn: number | null;
  tokensOut: number | null;
  costUsd: number | null;
  durationMs: number;
  transcript?: string;
  /** Who wrote this answer, where a recording says: a human's fix is not the agent's repair. */
  author?: 'agent' | 'human';
  /** How to run the program, where a recording's `.replay.json` says (`run`). */
  run?: RunSpec;
  /** The session to continue at the next call (a preset with memory). */
  session?: Buffer | null;
  /** The agent's version (`claude-code 2.1.332 (Claude Code)`), where known. */
  agentVersion?: string | null;
  /** Whose estimate costUsd is, where the agent reports one. */
  costSource?: string | null;
  /** The agent's own time (its command), where durationMs holds more. */
  agentMs?: number;
  /** What envgap added to the call: a sandbox up and down, files in and out (confined agents). */
  overheadMs?: number;
}

export interface Agent {
  readonly name: string;
  call(req: AgentRequest, signal?: AbortSignal): Promise<AgentResponse>;
}

/**
 * Input that can never succeed, however often it is retried (replay past the recording, a named API key
 * that is not set, an HTTP 4xx); callers turn it into a non-retryable failure. The name is what
 * Temporal reports as the failure type.
 */
export class AgentInputError extends Error {
  override name = 'AgentInputError';
}

/** What an activity throws for an agent's error: an AgentInputError as a non-retryable failure of that type; anything else as it is. */
export function activityFailure(err: unknown): unknown {
  if (err instanceof ModelEndpointError) return err.toFailure();
  return err instanceof AgentInputError ? ApplicationFailure.nonRetryable(err.message, 'AgentInputError') : err;
}

/** `work`, its AgentInputError a non-retryable failure of the activity that runs it. */
export async function withActivityFailures<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw activityFailure(err);
  }
}

/**
 * The agent answered, but not with a usable project (not JSON, wrong shape, an unsafe path). Another
 * sample may do better, so it is retryable like a plain Error; callers may count it against the agent.
 */
export class AgentOutputError extends Error {
  override name = 'AgentOutputError';
}

/**
 * The agent has no further answer: a recording that ends after a failed iteration, before the budget
 * is spent, is an agent that gave up. The instance ends `failed` with the iterations it has.
 */
export class AgentGaveUpError extends Error {
  override name = 'AgentGaveUpError';
}

/** Thrown when the caller's AbortSignal fires. */
export class AgentAbortedError extends Error {
  override name = 'AbortError';
}

/** What a failed call of an agent still cost, and the session it leaves to continue. */
export interface SpentOnFailure {
  tokensIn: number | null;
  tokensOut: number | null;
  costUsd: number | null;
  transcript: string;
  session?: Buffer | null;
  agentVersion?: string | null;
  costSource?: string | null;
}

/**
 * The agent's own failure in a call (docs/agents.md, "Who failed"): it crashed, timed out, overflowed
 * its context, refused, hit its budget, or left no project. A failed iteration of that class, handed
 * to Repair; never retried as an activity.
 */
export class AgentCallFailedError extends Error {
  override name = 'AgentCallFailedError';
  constructor(
    readonly errorClass: AgentCallFailure,
    message: string,
    readonly spent: SpentOnFailure,
  ) {
    super(message);
  }
}


/**
 * The model endpoint's fault, not the agent's: `auth` (it refused the key: a configuration error,
 * never retried), `unavailable` (429, 5xx, unreachable: retried with backoff, a bounded number of
 * times), `unresponsive` (a call unanswered at the agent's time limit: not retried).
 */
export class ModelEndpointError extends Error {
  override name = 'ModelEndpointError';
  constructor(
    readonly fault: EndpointFault,
    message: string,
  ) {
    super(message);
  }

  /** As the activity's failure: retryable only where the endpoint was unavailable. */
  toFailure(): ApplicationFailure {
    const type = ENDPOINT_FAILURE_TYPES[this.fault];
    return this.fault === 'unavailable' ? ApplicationFailure.retryable(this.message, type) : ApplicationFailure.nonRetryable(this.message, type);
  }
}
