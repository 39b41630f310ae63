import { CancelledFailure } from '@temporalio/activity';
import { WorkflowFailedError } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { studyWorkflow } from '../../src/workflows/study';
import { startTestWorkflowWorker, startWorkflowEnvironment, type TestWorker } from '../helpers/workflowEnv';
import { failedAt, FakeActivities, passed, studyInput, untilCancelled, waitFor } from './fakes';

// A study over fake activities: cancellation, continue-as-new and image preparation, no Docker or database.
let env: TestWorkflowEnvironment;
let worker: TestWorker;
const fake = new FakeActivities();

beforeAll(async () => {
  env = await startWorkflowEnvironment();
  worker = await startTestWorkflowWorker(env, 'wf-study', fake.activities());
}, 120000);
afterAll(async () => {
  await worker?.stop();
  await env?.teardown();
});

const tasks = (...ids: string[]) => ids.map((id) => ({ id, title: 't', domain: 'd' }));

test('cancelling a study cancels its running instance, which ends cancelled and unrecorded', async () => {
  let activityCancelled = false;
  fake.use({
    executeProject: async () => {
      try {
        return await untilCancelled();
      } catch (err) {
        activityCancelled = err instanceof CancelledFailure;
        throw err;
      }
    },
  });
  const study = studyInput('cancelled', { tasks: tasks('p_01', 'p_02') });
  const handle = await env.client.workflow.start<typeof studyWorkflow>('studyWorkflow', { workflowId: study.name, taskQueue: worker.taskQueue, args: [study] });
  await waitFor('the first instance to execute', () => fake.callsOf('executeProject').length > 0);
  await handle.cancel();
  await expect(handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);
  expect((await handle.describe()).status.name).toBe('CANCELLED');
  const child = env.client.workflow.getHandle('cancelled/fake/python/p_01/1');
  expect((await child.describe()).status.name).toBe('CANCELLED');
  // The activity saw the cancellation (the instance waits for it) and nothing was recorded or started after it.
  expect(activityCancelled).toBe(true);
  expect(fake.callsOf('recordInstance')).toEqual([]);
  expect(fake.callsOf('callAgent').map((c) => c.input.instanceId)).toEqual(['cancelled/fake/python/p_01/1']);
}, 60000);

test('a study past its history limit continues as new, carrying position and counts', async () => {
  fake.use({ executeProject: (input) => (input.instanceId.includes('/p_02/') ? failedAt('run', 'Runtime') : passed) });
  const study = studyInput('handover', { tasks: tasks('p_01', 'p_02', 'p_03'), historyLimit: 1 });
  const handle = await env.client.workflow.start<typeof studyWorkflow>('studyWorkflow', { workflowId: study.name, taskQueue: worker.taskQueue, args: [study] });
  const summary = await handle.result();
  expect(summary.progress).toMatchObject({ total: 3, done: 3, running: [], counts: { success: 2, failed: 1, error: 0 } });
  expect(summary.outcomes.map((o) => o.instanceId)).toEqual(['handover/fake/python/p_03/1']); // the last run's; the database has all
  const first = await env.client.workflow.getHandle(study.name, handle.firstExecutionRunId).describe();
  expect(first.status.name).toBe('CONTINUED_AS_NEW');
  // Every instance ran and was recorded exactly once; the study itself once, by its first run.
  expect(fake.callsOf('recordInstance').map((c) => c.input.input.instanceId)).toEqual(['p_01', 'p_02', 'p_03'].map((t) => `handover/fake/python/${t}/1`));
  expect(fake.callsOf('recordStudy')).toHaveLength(1);
  expect(fake.record('handover/fake/python/p_02/1')).toMatchObject({ status: 'failed', first_error_class: 'Runtime' });
}, 60000);

test('a harness fault in one instance is counted as an error and the study goes on', async () => {
  fake.use({
    callAgent: (input) => {
      if (input.task.id === 'p_01') throw new Error('agent host unreachable');
      return { kind: 'project', filesHash: `${input.instanceId}@${input.iteration}`, fileCount: 1, tokensIn: null, tokensOut: null, costUsd: null, durationMs: 1 };
    },
  });
  const study = studyInput('with-fault', { tasks: tasks('p_01', 'p_02'), concurrency: 2 });
  const summary = await env.client.workflow.execute<typeof studyWorkflow>('studyWorkflow', { workflowId: study.name, taskQueue: worker.taskQueue, args: [study] });
  expect(summary.progress.counts).toEqual({ success: 1, failed: 0, error: 1 });
  expect(fake.record('with-fault/fake/python/p_01/1')).toMatchObject({ status: 'error', error: { kind: 'Error' } });
}, 60000);

test('a study prepares the image of each of its languages once, before any instance starts', async () => {
  fake.use();
  const study = studyInput('images', { languages: ['python', 'java'], tasks: tasks('p_01', 'p_02'), concurrency: 2 });
  const summary = await env.client.workflow.execute<typeof studyWorkflow>('studyWorkflow', { workflowId: study.name, taskQueue: worker.taskQueue, args: [study] });
  expect(summary.progress.counts).toEqual({ success: 4, failed: 0, error: 0 });
  const prepared = fake.callsOf('prepareImage');
  expect(prepared.map((c) => c.input.language).sort()).toEqual(['java', 'python']);
  const firstAgentCall = fake.calls.findIndex((c) => c.name === 'callAgent');
  expect(fake.calls.findIndex((c) => c.name === 'prepareImage')).toBeLessThan(firstAgentCall);
  expect(fake.calls.slice(firstAgentCall).filter((c) => c.name === 'prepareImage')).toEqual([]);
}, 60000);

test('a terminated instance becomes its error record and the study goes on', async () => {
  fake.use({
    executeProject: async (input) => {
      if (input.instanceId.includes('/p_01/')) return untilCancelled();
      return passed;
    },
  });
  const study = studyInput('terminated', { tasks: tasks('p_01', 'p_02'), concurrency: 2 });
  const handle = await env.client.workflow.start<typeof studyWorkflow>('studyWorkflow', { workflowId: study.name, taskQueue: worker.taskQueue, args: [study] });
  await waitFor('p_01 to execute', () => fake.callsOf('executeProject').some((c) => c.input.instanceId.includes('/p_01/')));
  await env.client.workflow.getHandle('terminated/fake/python/p_01/1').terminate('stuck');
  const summary = await handle.result();
  expect(summary.progress.counts).toEqual({ success: 1, failed: 0, error: 1 });
  expect(fake.record('terminated/fake/python/p_01/1')).toMatchObject({ status: 'error', error: { kind: 'InstanceTerminated' }, iterations: 0 });
  expect(fake.record('terminated/fake/python/p_02/1')).toMatchObject({ status: 'success' });
}, 60000);

test('an instance cancelled on its own (not its study) becomes its error record and the study goes on', async () => {
  fake.use({ executeProject: () => untilCancelled(20000) });
  const study = studyInput('child-cancelled', { tasks: tasks('p_01') });
  const handle = await env.client.workflow.start<typeof studyWorkflow>('studyWorkflow', { workflowId: study.name, taskQueue: worker.taskQueue, args: [study] });
  await waitFor('p_01 to execute', () => fake.callsOf('executeProject').length > 0);
  await env.client.workflow.getHandle('child-cancelled/fake/python/p_01/1').cancel();
  const summary = await handle.result();
  expect(summary.progress.counts).toEqual({ success: 0, failed: 0, error: 1 });
  expect(fake.record('child-cancelled/fake/python/p_01/1')).toMatchObject({ status: 'error', error: { kind: 'InstanceCancelled' } });
}, 60000);
