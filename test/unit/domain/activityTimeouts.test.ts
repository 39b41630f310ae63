import { ACTIVITY_MARGIN_S, AGENT_OUTPUT_SAMPLES, agentCallTimeoutS, executeTimeoutS, instanceTimeoutS } from '../../../src/domain/activityTimeouts';
import { DEFAULT_LIMITS } from '../../../src/domain/study';

test('a cli agent with timeout_s 3600 gets every sample to its own limit, plus the margin', () => {
  expect(agentCallTimeoutS({ kind: 'cli', timeout_s: 3600 })).toBe(AGENT_OUTPUT_SAMPLES * 3600 + ACTIVITY_MARGIN_S);
  expect(agentCallTimeoutS({ kind: 'cli', timeout_s: 3600 })).toBeGreaterThan(40 * 60);
});

test('an openai agent is limited by its own timeout_s; replay by a fixed read limit', () => {
  expect(agentCallTimeoutS({ kind: 'openai', timeout_s: 120 })).toBe(AGENT_OUTPUT_SAMPLES * 120 + ACTIVITY_MARGIN_S);
  expect(agentCallTimeoutS({ kind: 'replay' })).toBeGreaterThan(ACTIVITY_MARGIN_S);
});

test('an execution may take the sum of its step limits and a margin', () => {
  const limits = { ...DEFAULT_LIMITS, install_timeout_s: 1000, run_timeout_s: 50 };
  const t = executeTimeoutS(limits);
  // apt.txt, install or configure, build or listing: each up to the install limit; then the run.
  expect(t).toBeGreaterThanOrEqual(3 * 1000 + 50 + ACTIVITY_MARGIN_S);
  expect(executeTimeoutS({ ...limits, install_timeout_s: 2000 })).toBe(t + 3 * 1000);
  expect(executeTimeoutS({ ...limits, run_timeout_s: 3600 })).toBe(t + 3550);
});

test('an instance may take every iteration at its limits, and no longer', () => {
  const agent = { kind: 'cli', timeout_s: 600 };
  const one = instanceTimeoutS({ agent, limits: DEFAULT_LIMITS, budget: 0 });
  expect(one).toBe(agentCallTimeoutS(agent) + executeTimeoutS(DEFAULT_LIMITS) + ACTIVITY_MARGIN_S);
  expect(instanceTimeoutS({ agent, limits: DEFAULT_LIMITS, budget: 10 })).toBe(11 * (one - ACTIVITY_MARGIN_S) + ACTIVITY_MARGIN_S);
});
