import type { AgentCallFailure } from '../../domain/instance';
import type { ReportedFailure } from '../presets/types';
import type { RelayedCall } from './modelRelay';

/**
 * Whose a finished agent call is (docs/agents.md, "Who failed"), the same in every protocol:
 * - `ok`: the agent ran to its end (whether its project is usable is judged after);
 * - `agent`: the agent's own failure, a failed iteration of its class, handed to Repair, never retried;
 * - `endpoint`: the model endpoint's fault, the instance's `error`: `auth` (it refused the key: a
 *   configuration error, never retried, and the study starts no more instances of that agent),
 *   `unavailable` (429, 5xx or unreachable: retried with backoff, a bounded number of times),
 *   `unresponsive` (a model call still unanswered when the agent's time ran out: not retried, since
 *   each try would cost another time limit).
 */
export type Attribution =
  | { kind: 'ok' }
  | { kind: 'agent'; errorClass: AgentCallFailure; message: string }
  | { kind: 'endpoint'; fault: 'auth' | 'unavailable' | 'unresponsive'; message: string };

export interface FinishedCall {
  exitCode: number | null;
  timedOut: boolean;
  timeoutS: number;
  /** The model calls the relay passed on, in order. */
  calls: readonly RelayedCall[];
  /** What the agent's output reports of itself (a context overflow, a refusal, a budget). */
  reported: ReportedFailure | null;
  /** Who the agent is, for the messages. */
  agent: string;
}

const failedCall = (c: RelayedCall) => c.problem !== null || (c.status !== null && (c.status === 429 || c.status >= 500));
const answered = (c: RelayedCall) => c.status !== null || c.problem !== null;

export function attribute(f: FinishedCall): Attribution {
  const refused = f.calls.find((c) => c.status === 401 || c.status === 403);
  if (refused) return { kind: 'endpoint', fault: 'auth', message: `the model endpoint refused ${f.agent}'s key (HTTP ${refused.status}): check its api_key_env and base_url` };
  const last = f.calls[f.calls.length - 1];
  if (f.timedOut && last && !answered(last)) {
    return { kind: 'endpoint', fault: 'unresponsive', message: `a model call of ${f.agent} was still unanswered when its time limit of ${f.timeoutS} s ran out` };
  }
  if (last && failedCall(last)) {
    const what = last.problem ?? `HTTP ${last.status}`;
    const count = f.calls.filter(failedCall).length;
    return { kind: 'endpoint', fault: 'unavailable', message: `${f.agent}'s last model call failed (${what}; ${count} of ${f.calls.length} calls failed)` };
  }
  if (f.timedOut) return { kind: 'agent', errorClass: 'AgentTimeout', message: `${f.agent} ran past its time limit of ${f.timeoutS} s and was stopped` };
  if (f.reported) return { kind: 'agent', errorClass: f.reported, message: `${f.agent} ${REPORTED[f.reported]}${f.exitCode === 0 ? '' : ` (exit ${f.exitCode ?? 'by signal'})`}` };
  if (f.exitCode !== 0) return { kind: 'agent', errorClass: 'AgentCrash', message: `${f.agent} ${f.exitCode === null ? 'was killed by a signal' : `exited ${f.exitCode}`}` };
  return { kind: 'ok' };
}

const REPORTED: Record<ReportedFailure, string> = {
  AgentContext: 'overflowed its context',
  AgentRefused: 'refused the task',
  AgentBudget: 'hit its token budget',
};
