import { CancelledFailure } from '@temporalio/activity';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createExecuteActivities } from '../../src/activities/execute';
import type { ExecuteInput, ExecutionOutcome } from '../../src/activities/types';
import { BlobStore } from '../../src/db/blobs';
import { DEFAULT_LIMITS } from '../../src/domain/study';
import { connectDocker } from '../../src/infra/docker';
import { loadSettings } from '../../src/infra/settings';
import { freshDatabase } from '../helpers/postgres';

// Two attempts of one execution alive at once, as after a heartbeat timeout: the server has retried
// while the first attempt still runs. They must never collide on a container, and the superseded
// attempt must never report (or store) an outcome that would be blamed on the agent.
const docker = connectDocker();
let database: Awaited<ReturnType<typeof freshDatabase>>;
let activities: ReturnType<typeof createExecuteActivities>;

beforeAll(async () => {
  database = await freshDatabase();
  activities = createExecuteActivities({ db: database.db, blobs: new BlobStore(database.db), docker, settings: loadSettings() });
}, 60000);
afterAll(() => database?.drop());

const slowProgram = { 'main.py': 'import time\ntime.sleep(6)\nprint("done")\n' };

async function input(id: string): Promise<ExecuteInput> {
  const filesHash = await new BlobStore(database.db).putJson(slowProgram);
  await database.db.insertInto('iterations').values({ instance_id: id, iteration: 0, files_hash: filesHash, agent: null, execution: null }).execute();
  return { instanceId: id, iteration: 0, language: 'python', filesHash, limits: { ...DEFAULT_LIMITS, run_timeout_s: 60 } };
}

async function containersOf(id: string) {
  return docker.listContainers({ all: true, filters: { label: [`envgap.instance=${id}`] } });
}

async function untilContainer(id: string, attempt: number): Promise<void> {
  const deadline = Date.now() + 60000;
  while (!(await containersOf(id)).some((c) => c.Labels['envgap.attempt'] === String(attempt))) {
    if (Date.now() > deadline) throw new Error(`attempt ${attempt} never started a container`);
    await new Promise((r) => setTimeout(r, 200));
  }
  await new Promise((r) => setTimeout(r, 1500)); // into the run step
}

function attempt(n: number) {
  const env = new MockActivityEnvironment({ attempt: n });
  return { env, run: (i: ExecuteInput) => env.run(activities.executeProject, i) };
}

async function storedExecution(id: string): Promise<ExecutionOutcome | null> {
  const row = await database.db.selectFrom('iterations').select('execution').where('instance_id', '=', id).executeTakeFirstOrThrow();
  return (typeof row.execution === 'string' ? JSON.parse(row.execution) : row.execution) as ExecutionOutcome | null;
}

test('two attempts at once: the newer one runs in its own container; the older one ends as a harness fault', async () => {
  const id = 'attempts/replay/python/p_01/1';
  const i = await input(id);
  const first = attempt(1).run(i);
  first.catch(() => undefined);
  await untilContainer(id, 1);
  const second = await attempt(2).run(i);
  expect(second).toMatchObject({ success: true, failedStep: null });
  // Whichever step noticed first (a step killed with its container, a harness step that could not run),
  // the older attempt ends as a fault of the harness and never returns an outcome to blame on the project.
  const fault = await first.then(() => null, (err: Error) => err);
  expect(fault).toBeInstanceOf(Error);
  expect(fault).not.toHaveProperty('success');
  expect((await storedExecution(id))?.success).toBe(true);
  expect(await containersOf(id)).toEqual([]);
}, 180000);

test('an attempt retried after a heartbeat timeout while the first still runs: the first is cancelled and stores nothing', async () => {
  const id = 'attempts/replay/python/p_02/1';
  const i = await input(id);
  const one = attempt(1);
  const first = one.run(i);
  first.catch(() => undefined);
  await untilContainer(id, 1);
  // What the SDK does to the first attempt once the server refuses its next heartbeat.
  one.env.cancel('TIMED_OUT');
  const second = attempt(2).run(i);
  await expect(first).rejects.toBeInstanceOf(CancelledFailure);
  expect(await second).toMatchObject({ success: true });
  expect((await storedExecution(id))?.success).toBe(true);
  expect(await containersOf(id)).toEqual([]);
}, 180000);
