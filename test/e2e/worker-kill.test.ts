import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadCatalog } from '../../src/catalog/catalog';
import type { InstanceRecord } from '../../src/domain/instance';
import { DEFAULT_LIMITS, type StudyInput } from '../../src/domain/study';
import { connectDocker } from '../../src/infra/docker';
import { QUEUES } from '../../src/workers/queues';
import type { studyWorkflow } from '../../src/workflows/study';
import { REPO_ROOT } from '../helpers/harness';
import { useWorkerProcesses } from '../helpers/workerProcesses';
import { processesMatching, uniqueSleep, waitFor } from '../helpers/processes';
import type { instanceWorkflow } from '../../src/workflows/instance';

// Durability: `envgap worker` processes (the built CLI) against a real Temporal server and Postgres.
// The first worker is killed with SIGKILL while an instance's container runs; a second worker
// finishes the study, and every instance is recorded exactly once.
const h = useWorkerProcesses();
const startWorker = (stateDir: string) => h.start(stateDir);

async function instanceContainers(study: string): Promise<string[]> {
  const list = await connectDocker().listContainers({ all: true, filters: { label: ['envgap.instance'] } });
  return list.filter((c) => c.Labels['envgap.instance'].startsWith(`${study}/`)).map((c) => c.Names[0]);
}

test('killing the worker mid-instance and starting another completes the study, each instance recorded once', async () => {
  const catalog = loadCatalog();
  const study: StudyInput = {
    name: `kill-${process.pid}`,
    agents: [{ kind: 'replay', name: 'replay', path: path.join(REPO_ROOT, 'corpus/quickstart') }],
    languages: ['python'],
    tasks: ['p_30', 'p_04', 'p_43'].map((id) => ({ id, title: catalog.task(id).title, domain: catalog.task(id).domain })),
    trials: 1,
    budget: 10,
    concurrency: 1,
    limits: { ...DEFAULT_LIMITS, run_timeout_s: 60 },
  };
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-kill-'));
  const first = startWorker(stateDir);
  const handle = await h.server.client.workflow.start<typeof studyWorkflow>('studyWorkflow', {
    workflowId: study.name,
    taskQueue: QUEUES.cpu,
    args: [study],
  });

  const deadline = Date.now() + 120000;
  while ((await instanceContainers(study.name)).length === 0) {
    if (Date.now() > deadline) throw new Error('no instance container appeared within 120 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  first.kill('SIGKILL');
  await new Promise((r) => first.once('exit', r));
  expect((await instanceContainers(study.name)).length).toBeGreaterThan(0); // left behind by the crash

  startWorker(stateDir);
  const summary = await handle.result();
  expect(summary.progress).toMatchObject({ total: 3, done: 3, counts: { success: 3, failed: 0, error: 0 } });

  const rows = await h.database.db.selectFrom('instances').selectAll().where('study', '=', study.name).execute();
  expect(rows.map((r) => r.id).sort()).toEqual([`${study.name}/replay/python/p_04/1`, `${study.name}/replay/python/p_30/1`, `${study.name}/replay/python/p_43/1`]);
  const p30 = rows.find((r) => r.task === 'p_30')!.record as unknown as InstanceRecord;
  expect(p30).toMatchObject({ status: 'success', repair_depth: 1, declared: ['pygments'], traced: ['markdown', 'pygments'] });
  expect(await instanceContainers(study.name)).toEqual([]);
}, 400000);

test('a SIGKILLed worker leaves no cli agent process behind', async () => {
  // Only the worker about to be killed may poll: the earlier test's second worker would take the agent.
  for (const w of h.workers) if (w.exitCode === null) w.kill('SIGKILL');
  const sleep = uniqueSleep();
  const id = `killcli-${process.pid}/sleeper/python/p_04/1`;
  const worker = startWorker(fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-killcli-')));
  const handle = await h.server.client.workflow.start<typeof instanceWorkflow>('instanceWorkflow', {
    workflowId: id,
    taskQueue: QUEUES.cpu,
    args: [{
      instanceId: id, study: `killcli-${process.pid}`, agent: { kind: 'cli', name: 'sleeper', command: sleep.command, timeout_s: 3600, env: [] },
      language: 'python', task: { id: 'p_04', title: 't', domain: 'd' }, trial: 1, budget: 0, limits: DEFAULT_LIMITS,
    }],
  });
  await waitFor('the cli agent to start', () => processesMatching(sleep.marker).length > 0, 120000);
  worker.kill('SIGKILL');
  await new Promise((r) => worker.once('exit', r));
  // The watchdog notices the dead worker's closed pipe at once (the margin is for a loaded machine).
  await waitFor('the agent to die with its worker', () => processesMatching(sleep.marker).length === 0, 30000);
  await handle.terminate('test over');
}, 200000);
