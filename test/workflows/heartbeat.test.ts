import { Context } from '@temporalio/activity';
import { WorkflowFailedError } from '@temporalio/client';
import { ActivityFailure, TimeoutFailure, TimeoutType } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, Worker, type WorkerOptions } from '@temporalio/worker';
import * as fs from 'node:fs';
import { workerActivityOptions } from '../../src/workers/activityOptions';
import { drain } from '../../src/workers/drain';
import { drainMarker } from '../../src/infra/workerIdentity';
import { startWorkflowEnvironment } from '../helpers/workflowEnv';
import { waitFor } from '../helpers/waitFor';
import type { gatedActivityWorkflow, silentActivityWorkflow } from './heartbeatWorkflows';

// Heartbeating is the worker's: every activity beats from its first moment, whatever it waits on
// (src/activities/heartbeat.ts, registered by workerActivityOptions). A worker inside a CLI command
// that leaves drains: it stops polling, and the activities it runs finish, beating, not cancelled.
let env: TestWorkflowEnvironment;
let bundle: Awaited<ReturnType<typeof bundleWorkflowCode>>;
const started: Worker[] = [];
let release = false;

beforeAll(async () => {
  env = await startWorkflowEnvironment();
  bundle = await bundleWorkflowCode({ workflowsPath: require.resolve('./heartbeatWorkflows'), logger: { info() {}, warn() {}, error() {}, debug() {}, trace() {}, log() {} } });
}, 120000);
afterAll(async () => {
  release = true;
  for (const w of started) if (w.getState() === 'RUNNING') w.shutdown();
  await env?.teardown();
});

const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) => (t ? Number(t.seconds) * 1000 + Math.floor((t.nanos ?? 0) / 1e6) : 0);
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

const gate = (() => {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
})();
const gatedRuns: Array<{ attempt: number; aborted: boolean }> = [];

const activities = {
  /** Calls nothing of Temporal's activity API: it only watches, through the client, what the server saw. */
  async silentUntilBeaten(spanMs: number): Promise<number> {
    const { info } = Context.current();
    const handle = env.client.workflow.getHandle(info.workflowExecution!.workflowId);
    for (;;) {
      if (release) throw new Error('released by the test');
      const pending = (await handle.describe()).raw.pendingActivities?.[0];
      if (pending?.lastHeartbeatTime && ms(pending.lastHeartbeatTime) - ms(pending.lastStartedTime) >= spanMs) return info.attempt;
      await sleep(100);
    }
  },
  async gated(): Promise<number> {
    const ctx = Context.current();
    await gate.opened;
    gatedRuns.push({ attempt: ctx.info.attempt, aborted: ctx.cancellationSignal.aborted });
    return ctx.info.attempt;
  },
};

/** A worker on its own queue; heartbeats held back at most 200 ms (production: 10 s for 30 s timeouts). */
async function startWorker(taskQueue: string, options: Partial<WorkerOptions>) {
  const worker = await Worker.create({ connection: env.nativeConnection, namespace: env.namespace ?? 'default', taskQueue, workflowBundle: bundle, activities, ...options, maxHeartbeatThrottleInterval: '200ms' });
  started.push(worker);
  return { worker, running: worker.run() };
}

// Generous against a loaded machine (a CI run beside another clone's quickstart): a beat every third
// of the timeout leaves two beats' slack, and 10 s absorbs the event-loop stalls of a busy 2-core host.
const HEARTBEAT_TIMEOUT_MS = 10_000;
const silent = { heartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS, spanMs: 2.5 * HEARTBEAT_TIMEOUT_MS };

test('an activity silent for longer than its heartbeat timeout is neither timed out nor retried: the worker beats for it', async () => {
  const { worker, running } = await startWorker('hb-interceptor', workerActivityOptions('worker'));
  const attempt = await env.client.workflow.execute<typeof silentActivityWorkflow>('silentActivityWorkflow', {
    workflowId: `hb-silent-${Date.now()}`,
    taskQueue: 'hb-interceptor',
    args: [{ ...silent, maximumAttempts: 3 }],
  });
  expect(attempt).toBe(1);
  worker.shutdown();
  await running;
}, 120000);

test('without the interceptor, the same activity is taken for dead (the test tells the two apart)', async () => {
  const { worker, running } = await startWorker('hb-plain', {});
  const handle = await env.client.workflow.start<typeof silentActivityWorkflow>('silentActivityWorkflow', {
    workflowId: `hb-plain-${Date.now()}`,
    taskQueue: 'hb-plain',
    args: [{ ...silent, maximumAttempts: 1 }],
  });
  const err = await handle.result().then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(WorkflowFailedError);
  const activity = (err as WorkflowFailedError).cause;
  expect(activity).toBeInstanceOf(ActivityFailure);
  expect((activity as ActivityFailure).cause).toBeInstanceOf(TimeoutFailure);
  expect(((activity as ActivityFailure).cause as TimeoutFailure).timeoutType).toBe(TimeoutType.HEARTBEAT);
  release = true; // its activity still waits for beats that never come
  worker.shutdown();
  await running;
  release = false;
}, 120000);

test("a CLI command's worker that leaves drains: it stops polling and its running activity finishes, beating, then another worker goes on", async () => {
  const { worker, running } = await startWorker('hb-drain', workerActivityOptions('cli'));
  const handle = await env.client.workflow.start<typeof gatedActivityWorkflow>('gatedActivityWorkflow', { workflowId: `hb-drain-${Date.now()}`, taskQueue: 'hb-drain', args: [{ heartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS }] });
  await waitFor('the activity to start', async () => ((await handle.describe()).raw.pendingActivities?.[0]?.lastStartedTime ?? null) !== null);
  const lines: string[] = [];
  const drainStarted = Date.now();
  const drained = drain(() => worker.shutdown(), running, (l) => lines.push(l));
  expect(worker.getState()).toBe('DRAINING');
  expect(fs.existsSync(drainMarker(process.pid))).toBe(true); // other envgap commands take this process for no poller
  expect(lines).toEqual([expect.stringContaining(`waits for 1 activity it runs to finish (other studies may rely on them): gated of ${handle.workflowId}`)]);
  // The server still hears the activity a whole heartbeat timeout after the worker stopped polling: it is not handed back, nor timed out.
  await waitFor('a beat a heartbeat timeout after the drain began', async () => ms((await handle.describe()).raw.pendingActivities?.[0]?.lastHeartbeatTime) > drainStarted + HEARTBEAT_TIMEOUT_MS, 60000);
  gate.open();
  await drained;
  expect(gatedRuns).toEqual([{ attempt: 1, aborted: false }]);
  expect(fs.existsSync(drainMarker(process.pid))).toBe(false);
  // The drained worker took no further task: the workflow's next one waits for another worker.
  const next = await startWorker('hb-drain', workerActivityOptions('worker'));
  expect(await handle.result()).toBe(1);
  next.worker.shutdown();
  await next.running;
}, 120000);
