import type { ContainerLimits } from './study';

/**
 * Activity timeouts derived from an instance's own input, so an agent or a step runs to its own limit
 * and is never cut short by a constant. Pure: the workflows call these.
 */

/** Missed heartbeats after which an attempt is taken for dead and retried (activities beat every 5 s). */
export const HEARTBEAT_TIMEOUT_S = 30;

/** Samples of one agent call whose output may be unusable before the iteration counts as AgentOutput. */
export const AGENT_OUTPUT_SAMPLES = 3;

/** Time for the harness around the agent or the steps: copying files, storing blobs, container start-up. */
export const ACTIVITY_MARGIN_S = 300;

/** Harness steps inside an execution (listing packages, reading artefacts), each limited to this. */
const HARNESS_STEP_S = 300;
const HARNESS_STEPS = 2;

/** Steps of one execution that run under the install limit: apt.txt, then install or configure, then build or listing. */
const INSTALL_LIMITED_STEPS = 3;

/** A replay agent reads files; it has no time limit of its own. */
const REPLAY_CALL_S = 300;

/** `timeout_s` is the agent spec's own limit per call (cli and openai agents); replay has none. */
export function agentCallTimeoutS(agent: { kind: string; timeout_s?: number }): number {
  const perSample = agent.timeout_s ?? REPLAY_CALL_S;
  return AGENT_OUTPUT_SAMPLES * perSample + ACTIVITY_MARGIN_S;
}

export function executeTimeoutS(limits: ContainerLimits): number {
  return INSTALL_LIMITED_STEPS * limits.install_timeout_s + limits.run_timeout_s + HARNESS_STEPS * HARNESS_STEP_S + ACTIVITY_MARGIN_S;
}

/** An image build: debootstrap and apt-get of a language runtime; slow mirrors can take long. */
export const IMAGE_BUILD_TIMEOUT_S = 3600;

/**
 * An upper bound for a whole instance: every iteration's agent call and execution at their limits.
 * An instance that runs past it (a workflow task failing forever) is timed out and recorded as `error`.
 */
export function instanceTimeoutS(input: { agent: { kind: string; timeout_s?: number }; limits: ContainerLimits; budget: number; confirmPhantoms?: { maxTrials: number } }): number {
  return (input.budget + 1) * (agentCallTimeoutS(input.agent) + executeTimeoutS(input.limits)) + ACTIVITY_MARGIN_S + (input.confirmPhantoms ? confirmationTimeoutS(input.limits, input.confirmPhantoms.maxTrials) : 0);
}

/** An upper bound for one instance's phantom confirmation: its plan, then every trial at its execution's limits. */
export function confirmationTimeoutS(limits: ContainerLimits, maxTrials: number): number {
  return maxTrials * executeTimeoutS(limits) + ACTIVITY_MARGIN_S;
}
