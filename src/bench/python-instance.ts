/**
 * Benchmark (not a test): warm seconds per Python instance, the harness's own share of that time,
 * and strace's overhead. Run after `npm run build`: `npm run bench [-- N]`.
 * Uses a throw-away Temporal dev server, DATABASE_URL or an embedded PGlite, and real Docker.
 */
import { Client } from '@temporalio/client';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ContainerSession } from '../activities/containerSession';
import { loadCatalog } from '../catalog/catalog';
import { BlobStore } from '../db/blobs';
import { migrateToLatest, openDatabase } from '../db/connect';
import type { ProjectFiles } from '../domain/files';
import { DEFAULT_LIMITS, type InstanceInput } from '../domain/study';
import { connectDocker } from '../infra/docker';
import { ensureRuntimeImage } from '../infra/images';
import { CA_ENV } from '../infra/recipes';
import { loadSettings } from '../infra/settings';
import { startEphemeralDevServer } from '../infra/temporal';
import { createCpuWorker } from '../workers/cpuWorker';
import { QUEUES } from '../workers/queues';
import type { instanceWorkflow } from '../workflows/instance';

const REPO = path.resolve(__dirname, '../../..');
const CORPUS = path.join(REPO, 'corpus/quickstart');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function readProject(dir: string): ProjectFiles {
  return Object.fromEntries(fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
}

async function instanceTimings(n: number) {
  const settings = { ...loadSettings(), stateDir: fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-bench-')) };
  const server = await startEphemeralDevServer(settings.temporalCli);
  const db = await openDatabase({ url: settings.databaseUrl, stateDir: settings.stateDir });
  await migrateToLatest(db);
  const { worker, connection } = await createCpuWorker({ address: server.address, namespace: 'default', db, settings });
  const running = worker.run();
  const client = new Client({ connection: server.connection });
  const task = loadCatalog().task('p_04');
  const rows: { wall: number; container: number; execute: number }[] = [];
  try {
    for (let i = 0; i <= n; i++) {
      const input: InstanceInput = {
        instanceId: `bench-${process.pid}/replay/python/p_04/${i + 1}`, study: `bench-${process.pid}`,
        agent: { kind: 'replay', name: 'replay', path: path.join(os.tmpdir(), `envgap-bench-corpus-${process.pid}`) },
        language: 'python', task: { id: task.id, title: task.title, domain: task.domain }, trial: i + 1, budget: 0, limits: DEFAULT_LIMITS,
      };
      const src = path.join(CORPUS, 'python/p_04/1/0');
      const dst = path.join(input.agent.kind === 'replay' ? input.agent.path : '', 'python/p_04', String(i + 1), '0');
      fs.mkdirSync(dst, { recursive: true });
      for (const f of fs.readdirSync(src)) fs.copyFileSync(path.join(src, f), path.join(dst, f));
      const started = Date.now();
      await client.workflow.execute<typeof instanceWorkflow>('instanceWorkflow', { workflowId: input.instanceId, taskQueue: QUEUES.cpu, args: [input] });
      const wall = Date.now() - started;
      const it = await db.selectFrom('iterations').select(['execution']).where('instance_id', '=', input.instanceId).executeTakeFirstOrThrow();
      const d = (typeof it.execution === 'string' ? JSON.parse(it.execution) : it.execution).durations as Record<string, number>;
      const container = (d.container ?? 0) + (d.setup ?? 0) + (d.install ?? 0) + (d.run ?? 0);
      if (i > 0) rows.push({ wall, container, execute: d.total ?? 0 });
      if (i === n && process.env.ENVGAP_BENCH_TIMELINE) await printTimeline(client, input.instanceId); // the first instance warms caches and the bundle
    }
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
    await db.destroy();
    await server.stop();
  }
  return rows;
}

/** Event times of one instance's history, to see where the harness spends its time. */
async function printTimeline(client: Client, id: string) {
  const events = (await client.workflow.getHandle(id).fetchHistory()).events ?? [];
  const ms = (e: (typeof events)[number]) => Number(e.eventTime?.seconds ?? 0) * 1000 + (e.eventTime?.nanos ?? 0) / 1e6;
  const t0 = ms(events[0]);
  for (const e of events) {
    const name = e.activityTaskScheduledEventAttributes?.activityType?.name ?? e.markerRecordedEventAttributes?.markerName ?? '';
    console.log(`  ${(ms(e) - t0).toFixed(0).padStart(6)} ms  ${String(e.eventType).padEnd(4)} ${name}`);
  }
}

async function straceOverhead(project: string, runs: number) {
  const docker = connectDocker();
  const image = await ensureRuntimeImage(docker, loadSettings(), 'python', () => undefined);
  const session = await ContainerSession.open({
    docker, image, name: `envgap-bench-strace-${process.pid}`, limits: DEFAULT_LIMITS, env: CA_ENV,
    binds: ['envgap-pip-cache:/root/.cache/pip'], labels: {}, onTick: () => undefined,
  });
  try {
    await session.put('/work', readProject(path.join(CORPUS, project)));
    await session.exec('install', ['pip', 'install', '-q', '-r', 'requirements.txt'], 600);
    await session.exec('warm', ['python', 'main.py'], 120);
    const plain: number[] = [];
    const traced: number[] = [];
    for (let i = 0; i < runs; i++) {
      plain.push((await session.exec('plain', ['python', 'main.py'], 120)).durationMs);
      traced.push((await session.exec('traced', ['strace', '-f', '-qq', '--seccomp-bpf', '-e', 'trace=open,openat,execve', '-o', '/tmp/t', 'python', 'main.py'], 120)).durationMs);
    }
    return { plain: median(plain), traced: median(traced) };
  } finally {
    await session.close();
  }
}

async function main() {
  const n = Number(process.argv[2] ?? 5);
  const rows = await instanceTimings(n);
  const wall = rows.map((r) => r.wall / 1000);
  const share = rows.map((r) => (r.wall - r.container) / r.wall);
  console.log(`warm Python instance (p_04, fresh container each, n=${rows.length}):`);
  console.log(`  seconds per instance: median ${median(wall).toFixed(2)}, min ${Math.min(...wall).toFixed(2)}, max ${Math.max(...wall).toFixed(2)}   (target <= 15)`);
  console.log(`  harness share outside container work: median ${(median(share) * 100).toFixed(1)}%   (target <= 2%)`);
  const ms = (f: (r: (typeof rows)[number]) => number) => median(rows.map(f)).toFixed(0);
  console.log(`  harness ms: inside Execute ${ms((r) => r.execute - r.container)}, outside Execute (agent, extraction, recording, Temporal) ${ms((r) => r.wall - r.execute)}`);
  for (const project of ['python/p_30/1/1', 'python/p_49/1/0', 'python/p_04/1/0']) {
    const s = await straceOverhead(project, 7);
    console.log(`strace overhead ${project}: untraced ${s.plain} ms, traced ${s.traced} ms, ratio ${(s.traced / s.plain).toFixed(2)}   (target <= 1.5)`);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
