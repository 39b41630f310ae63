import { ApplicationFailure } from '@temporalio/activity';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { AgentSpec } from '../../src/domain/agentSpec';
import type { studyWorkflow } from '../../src/workflows/study';
import { startTestWorkflowWorker, startWorkflowEnvironment, type TestWorker } from '../helpers/workflowEnv';
import { failedAt, FakeActivities, passed, studyInput } from './fakes';

// Who failed, in the gap protocol's workflows over fake activities: an agent's own failed call is a
// failed iteration handed to Repair with its session; an endpoint refusing the key stops the agent.
let env: TestWorkflowEnvironment;
let worker: TestWorker;
const fake = new FakeActivities();

beforeAll(async () => {
  env = await startWorkflowEnvironment();
  worker = await startTestWorkflowWorker(env, 'wf-attribution', fake.activities());
}, 120000);
afterAll(async () => {
  await worker?.stop();
  await env?.teardown();
});

const preset = (name: string): AgentSpec => ({ kind: 'claude-code', name, timeout_s: 60, memory: true, env: [] });
const tasks = (...ids: string[]) => ids.map((id) => ({ id, title: 't', domain: 'd' }));

test("an agent's crash is a failed iteration of its class, and Repair continues its session", async () => {
  fake.use({
    callAgent: (input) => {
      if (input.iteration === 0) return { kind: 'unusable', errorClass: 'AgentCrash', errorHash: 'crash-log', message: 'exited 1', sessionHash: 'session-0', tokensIn: 10, tokensOut: 2, costUsd: null, durationMs: 5 };
      return { kind: 'project', filesHash: `${input.instanceId}@${input.iteration}`, fileCount: 1, sessionHash: 'session-1', tokensIn: 10, tokensOut: 2, costUsd: null, durationMs: 5 };
    },
    executeProject: (input) => (input.iteration === 1 ? failedAt('run', 'Runtime') : passed),
  });
  const study = studyInput('crash-then-repair', { agents: [preset('claude')], budget: 3 });
  const summary = await env.client.workflow.execute<typeof studyWorkflow>('studyWorkflow', { workflowId: study.name, taskQueue: worker.taskQueue, args: [study] });
  expect(summary.progress.counts).toEqual({ success: 1, failed: 0, error: 0 });
  const calls = fake.callsOf('callAgent').map((c) => c.input);
  expect(calls.map((c) => [c.iteration, c.error?.class ?? null, c.previousSessionHash ?? null])).toEqual([
    [0, null, null],
    [1, 'AgentCrash', 'session-0'],
    [2, 'Runtime', 'session-1'],
  ]);
  expect(fake.record('crash-then-repair/claude/python/p_01/1')).toMatchObject({ status: 'success', first_error_class: 'AgentCrash', repair_depth: 2 });
}, 60000);

test("an endpoint that refuses an agent's key is an error after one attempt, and the study starts no more of that agent's instances", async () => {
  fake.use({
    callAgent: (input, attempt) => {
      if (input.agent.name === 'refused') throw ApplicationFailure.nonRetryable(`the model endpoint refused the key (HTTP 401) [attempt ${attempt}]`, 'ModelEndpointAuth');
      return { kind: 'project', filesHash: `${input.instanceId}@${input.iteration}`, fileCount: 1, tokensIn: null, tokensOut: null, costUsd: null, durationMs: 1 };
    },
  });
  const study = studyInput('refused-key', { agents: [preset('refused'), preset('fine')], tasks: tasks('p_01', 'p_02', 'p_03') });
  const summary = await env.client.workflow.execute<typeof studyWorkflow>('studyWorkflow', { workflowId: study.name, taskQueue: worker.taskQueue, args: [study] });
  expect(summary.progress.counts).toEqual({ success: 3, failed: 0, error: 3 });
  expect(summary.progress.stoppedAgents).toEqual({ refused: expect.stringContaining('HTTP 401') });
  const refusedCalls = fake.callsOf('callAgent').filter((c) => c.input.agent.name === 'refused');
  expect(refusedCalls).toHaveLength(1);
  expect(refusedCalls[0]!.attempt).toBe(1);
  expect(fake.record('refused-key/refused/python/p_01/1')).toMatchObject({ status: 'error', error: { kind: 'ModelEndpointAuth' } });
  for (const t of ['p_02', 'p_03']) {
    expect(fake.record(`refused-key/refused/python/${t}/1`)).toMatchObject({ status: 'error', error: { kind: 'ModelEndpointAuth', message: expect.stringMatching(/^not started: refused: .*HTTP 401/) } });
  }
}, 60000);
