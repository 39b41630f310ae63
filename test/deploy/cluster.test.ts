import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { instanceIterations } from '../../src/db/iterations';
import { connectDocker } from '../../src/infra/docker';
import { hostSubnets, SANDBOX_NETWORK } from '../../src/infra/sandboxNetwork';
import { QUEUES } from '../../src/workers/queues';
import type { studyWorkflow } from '../../src/workflows/study';
import { connectToDeployment, type Deployment } from '../helpers/deployment';
import { REPO_ROOT } from '../helpers/harness';
import { quickstartPythonStudy } from '../helpers/studies';

// deploy/ on this one machine: the real Temporal server on Postgres (schema by temporal-sql-tool), its
// Web UI, and envgap workers as separate processes with state folders of their own. A study runs
// through a worker killed with SIGKILL mid-instance and a restart of the Temporal server; every
// instance is recorded once, nothing is left behind, and the histories read back through the UI.
// The first run builds the server and the UI from the Go module proxy (about 7 CPU-minutes).
// Its ports, 26233-28233, stay apart from the compose test's (29233-30233): jest runs the two side by side.
const BASE = 27200;
const state = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-cluster-'));
const env = {
  ...process.env,
  ENVGAP_STATE: state,
  ENVGAP_CLUSTER_PORT_BASE: String(BASE),
  ENVGAP_CLUSTER_PGPORT: '55443',
  ENVGAP_CLUSTER_PGDATA: process.getuid?.() === 0 ? `/var/lib/envgap/cluster-pg-test-${process.pid}` : path.join(state, 'pg'),
};
const cluster = (args: string[], extra: Record<string, string> = {}) =>
  execFileSync('bash', [path.join(REPO_ROOT, 'deploy/local-cluster.sh'), ...args], { env: { ...env, ...extra }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 45 * 60_000 });
const pidOf = (name: string) => Number(fs.readFileSync(path.join(state, 'cluster', `${name}.pid`), 'utf8'));
const ui = `http://127.0.0.1:${BASE + 1033}`;
// As root each worker runs in a network namespace of its own, and the cluster listens on its bridge.
const NETNS = process.getuid?.() === 0;
const HOST = NETNS ? `10.251.${Math.floor(BASE / 100) % 250}.1` : '127.0.0.1';
const netnsOf = (pid: number) => fs.readlinkSync(`/proc/${pid}/ns/net`);

let d: Deployment;

async function instanceContainers(study: string): Promise<string[]> {
  const list = await connectDocker().listContainers({ all: true, filters: { label: ['envgap.instance'] } });
  return list.filter((c) => c.Labels['envgap.instance']!.startsWith(`${study}/`)).map((c) => c.Names[0]!);
}

beforeAll(async () => {
  // One worker first: the one to be killed is then surely the one running the instance.
  d = await connectToDeployment(cluster(['up'], { ENVGAP_CLUSTER_WORKERS: '1' }), state);
}, 50 * 60_000);

afterAll(async () => {
  await d?.close();
  cluster(['down', '--purge'], { ENVGAP_CLUSTER_WORKERS: '2' });
}, 120_000);

test('up prints the exports for a shell, and is idempotent', () => {
  expect(d.printed).toEqual({ TEMPORAL_ADDRESS: `${HOST}:${BASE + 33}`, DATABASE_URL: `postgres://postgres@${HOST}:55443/envgap` });
  const again = cluster(['up'], { ENVGAP_CLUSTER_WORKERS: '1' });
  expect(again).toContain(`export TEMPORAL_ADDRESS=${HOST}:${BASE + 33}`);
  expect(cluster(['status'], { ENVGAP_CLUSTER_WORKERS: '1' })).toMatch(/temporal-server: running[\s\S]*temporal-ui: running[\s\S]*worker-1: running/);
}, 600_000);

(NETNS ? test : test.skip)('each worker is in a network namespace of its own and reaches the cluster only through its address', () => {
  const worker = pidOf('worker-1');
  expect(netnsOf(worker)).not.toBe(netnsOf(process.pid));
  const port = BASE + 33;
  const connect = (host: string) => {
    try {
      execFileSync('nsenter', [`--net=/proc/${worker}/ns/net`, '--', 'bash', '-c', `exec 3<>/dev/tcp/${host}/${port}`], { stdio: 'ignore', timeout: 10_000 });
      return 'connected';
    } catch {
      return 'refused';
    }
  };
  expect({ loopback: connect('127.0.0.1'), cluster: connect(HOST) }).toEqual({ loopback: 'refused', cluster: 'connected' });
});

test('a study survives a worker killed mid-instance and a server restart: each instance recorded once, nothing left, histories in the UI', async () => {
  const name = `cluster-${process.pid}`;
  const tasks = ['p_30', 'p_04', 'p_43', 'p_13'];
  const study = quickstartPythonStudy(name, tasks, { concurrency: 2 });
  const handle = await d.client.workflow.start<typeof studyWorkflow>('studyWorkflow', { workflowId: name, taskQueue: QUEUES.cpu, args: [study] });
  const deadline = Date.now() + 300_000;
  while ((await instanceContainers(name)).length === 0) {
    if (Date.now() > deadline) throw new Error('no instance container appeared within 300 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  process.kill(pidOf('worker-1'), 'SIGKILL');
  // up starts what is not running: worker 1 again (a fresh process, same state folder) and worker 2.
  cluster(['up'], { ENVGAP_CLUSTER_WORKERS: '2' });
  cluster(['restart-server'], { ENVGAP_CLUSTER_WORKERS: '2' });

  let summary: Awaited<ReturnType<typeof handle.result>> | undefined;
  for (let i = 0; !summary; i++) {
    try {
      summary = await handle.result();
    } catch (err) {
      // The long poll may break while the server restarts; the workflow itself goes on.
      if (i > 20) throw err;
      await new Promise((r) => setTimeout(r, 3000));
    }
  }
  expect(summary.progress).toMatchObject({ total: 4, done: 4, counts: { error: 0 } });
  if (NETNS) expect(new Set([netnsOf(pidOf('worker-1')), netnsOf(pidOf('worker-2')), netnsOf(process.pid)]).size).toBe(3);
  const rows = await d.db.selectFrom('instances').select(['id']).where('study', '=', name).execute();
  expect(rows.map((r) => r.id).sort()).toEqual(tasks.map((t) => `${name}/replay/python/${t}/1`).sort());
  expect(await instanceContainers(name)).toEqual([]);

  // Workers in namespaces of their own programmed the sandbox firewall in Docker's: the recorded
  // policy blocks the host's own subnets, not only their namespace's.
  const [first] = await instanceIterations(d.db, `${name}/replay/python/p_04/1`);
  expect(first?.execution?.sandbox?.network).toBe(SANDBOX_NETWORK);
  for (const subnet of hostSubnets()) expect(first?.execution?.sandbox?.policy).toContain(subnet);

  // The histories, as the Web UI server serves them to its pages.
  for (const id of [name, `${name}/replay/python/p_30/1`]) {
    const r = await fetch(`${ui}/api/v1/namespaces/default/workflows/${encodeURIComponent(id)}/history`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as { history?: { events?: { eventType?: string }[] } };
    expect(body.history?.events?.[0]?.eventType).toMatch(/WORKFLOW_EXECUTION_STARTED/);
  }
}, 900_000);
