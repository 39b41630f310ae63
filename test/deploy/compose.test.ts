import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { studyRecords } from '../../src/db/instances';
import { instanceIterations } from '../../src/db/iterations';
import { connectDocker } from '../../src/infra/docker';
import { QUEUES } from '../../src/workers/queues';
import type { studyWorkflow } from '../../src/workflows/study';
import { connectToDeployment, type Deployment } from '../helpers/deployment';
import { REPO_ROOT } from '../helpers/harness';
import { quickstartPythonStudy } from '../helpers/studies';

// deploy/ with containers: deploy/compose.sh builds the images here from envgap's own base image (the
// Temporal server on its Postgres, the Web UI, the results Postgres, an envgap worker) and runs
// deploy/compose/docker-compose.yaml. A study runs on the containerised worker, its instances in
// containers of the host's Docker; the records land in the results database and the history reads
// back through the UI.
// Apart from the cluster test's ports (26233-28233), which may run at the same time: 29233-30233.
const BASE = 29200;
const project = `envgap-test-${process.pid}`;
const state = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-compose-'));
const env = { ...process.env, ENVGAP_COMPOSE_PORT_BASE: String(BASE), ENVGAP_COMPOSE_PROJECT: project, ENVGAP_COMPOSE_STATE: state };
const composeSh = (args: string[]) =>
  execFileSync('bash', [path.join(REPO_ROOT, 'deploy/compose.sh'), ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 45 * 60_000 });

let d: Deployment;

beforeAll(async () => {
  d = await connectToDeployment(composeSh(['up']), state);
}, 50 * 60_000);

afterAll(async () => {
  await d?.close();
  composeSh(['down', '--purge']);
}, 300_000);

test('up prints the exports for a shell, and the services run as containers', () => {
  expect(d.printed).toEqual({ TEMPORAL_ADDRESS: `127.0.0.1:${BASE + 33}`, DATABASE_URL: `postgres://postgres@127.0.0.1:${BASE + 433}/envgap` });
  const status = composeSh(['status']);
  for (const service of ['temporal-db', 'temporal', 'temporal-ui', 'results-db', 'worker-cpu']) expect(status).toMatch(new RegExp(`${project}_${service}_1 .* Up`));
});

test('a study runs on the containerised worker; its records and history are there, no container is left', async () => {
  const study = quickstartPythonStudy(`compose-${process.pid}`, ['p_04', 'p_43'], { concurrency: 2 });
  const summary = await d.client.workflow.execute<typeof studyWorkflow>('studyWorkflow', { workflowId: study.name, taskQueue: QUEUES.cpu, args: [study] });
  expect(summary.progress.counts).toEqual({ success: 2, failed: 0, error: 0 });
  const records = await studyRecords(d.db, study.name);
  expect(records.map((r) => [r.task, r.status])).toEqual([['p_04', 'success'], ['p_43', 'success']]);
  expect(records.map((r) => Array.isArray(r.traced))).toEqual([true, true]);
  // Outside dockerd's mount namespace the worker limits disk by the watchdog and mounts no caches, and says so.
  for (const r of records) {
    const [first] = await instanceIterations(d.db, `${study.name}/replay/python/${r.task}/1`);
    expect(first?.execution?.sandbox).toMatchObject({ disk: 'watchdog', caches: 'none' });
  }

  const left = (await connectDocker().listContainers({ all: true, filters: { label: ['envgap.instance'] } })).filter((c) => c.Labels['envgap.instance']!.startsWith(`${study.name}/`));
  expect(left).toEqual([]);

  const ui = `http://127.0.0.1:${BASE + 1033}`;
  const res = await fetch(`${ui}/api/v1/namespaces/default/workflows/${encodeURIComponent(study.name)}/history?maximumPageSize=5`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { history?: { events?: { eventType: string }[] } };
  expect(body.history?.events?.[0]?.eventType).toMatch(/WORKFLOW_EXECUTION_STARTED|WorkflowExecutionStarted/);
}, 15 * 60_000);
