import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { StudyProgress, studyWorkflow } from '../../src/workflows/study';
import { startTestWorkflowWorker, startWorkflowEnvironment, type TestWorker } from '../helpers/workflowEnv';
import { FakeActivities, passed, studyInput, waitFor } from './fakes';

// Study control over fake activities: pause and resume, errors run again inside the running study.
let env: TestWorkflowEnvironment;
let worker: TestWorker;
const fake = new FakeActivities();

beforeAll(async () => {
  env = await startWorkflowEnvironment();
  worker = await startTestWorkflowWorker(env, 'wf-study-control', fake.activities());
}, 120000);
afterAll(async () => {
  await worker?.stop();
  await env?.teardown();
});

const tasks = (...ids: string[]) => ids.map((id) => ({ id, title: 't', domain: 'd' }));
/** A gate an activity waits on until the test opens it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

test('a paused study lets its running instance finish and starts no new one until resumed', async () => {
  const first = gate();
  fake.use({
    executeProject: async (input) => {
      if (input.instanceId.includes('p_01')) await first.opened;
      return passed;
    },
  });
  const study = studyInput('paused', { tasks: tasks('p_01', 'p_02', 'p_03'), concurrency: 1 });
  const handle = await env.client.workflow.start<typeof studyWorkflow>('studyWorkflow', { workflowId: study.name, taskQueue: worker.taskQueue, args: [study] });
  await waitFor('the first instance to execute', () => fake.callsOf('executeProject').length > 0);
  await handle.signal('pause');
  first.open();
  await waitFor('the first instance to be recorded', () => fake.callsOf('recordInstance').length === 1);
  // Paused: nothing else starts, however long we wait here.
  await new Promise((r) => setTimeout(r, 1500));
  const paused = await handle.query<StudyProgress>('progress');
  expect(paused).toMatchObject({ done: 1, running: [], paused: true });
  expect(fake.callsOf('callAgent').filter((c) => !c.input.instanceId.includes('p_01'))).toHaveLength(0);
  await handle.signal('resume');
  const summary = await handle.result();
  expect(summary.progress).toMatchObject({ total: 3, done: 3, paused: false, counts: { success: 3, failed: 0, error: 0 } });
  expect(summary.progress.startedAtMs).toBeGreaterThan(0);
}, 60000);

test('retry-errors runs an error instance again inside the running study; its error is no longer counted', async () => {
  const second = gate();
  let fault = true;
  fake.use({
    callAgent: (input) => {
      if (input.task.id === 'p_01' && fault) throw new Error('agent host unreachable');
      return { kind: 'project', filesHash: `${input.instanceId}@${input.iteration}`, fileCount: 1, tokensIn: null, tokensOut: null, costUsd: null, durationMs: 1 };
    },
    executeProject: async (input) => {
      if (input.instanceId.includes('p_02')) await second.opened;
      return passed;
    },
  });
  const study = studyInput('retry-errors', { tasks: tasks('p_01', 'p_02'), concurrency: 1 });
  const handle = await env.client.workflow.start<typeof studyWorkflow>('studyWorkflow', { workflowId: study.name, taskQueue: worker.taskQueue, args: [study] });
  const failedId = 'retry-errors/fake/python/p_01/1';
  await waitFor('p_01 to be recorded as an error', () => fake.records().get(failedId)?.status === 'error', 30000);
  await waitFor('p_02 to run', () => fake.callsOf('executeProject').some((c) => c.input.instanceId.includes('p_02')));
  fault = false;
  // An id that is not of this study, or not run yet, is ignored.
  await handle.signal('retryErrors', [failedId, 'other/fake/python/p_09/1']);
  await waitFor('the retry to be queued', async () => ((await handle.query<StudyProgress>('progress')).retrying ?? []).includes(failedId));
  second.open();
  const summary = await handle.result();
  expect(summary.progress).toMatchObject({ total: 2, done: 2, retrying: [], counts: { success: 2, failed: 0, error: 0 } });
  expect(fake.records().get(failedId)).toMatchObject({ status: 'success' });
}, 90000);
