/**
 * Benchmark (not a test): per ecosystem, warm seconds per instance (fresh container each), the
 * harness's own share of that time (outside container work), and strace's overhead (traced over
 * untraced run time of the same program in the same container). After `npm run build`:
 *   npm run bench -- [N] [languages]      e.g. npm run bench -- 5 python,cpp
 * Uses a throw-away Temporal dev server, DATABASE_URL or an embedded PGlite, and real Docker.
 * ENVGAP_BENCH_TIMELINE=1 also prints the event times of the last instance's history.
 * Temporal's floor on this machine is measured too: the same client, server and worker running a
 * workflow of one activity that waits as long as an instance's container work took; what the harness
 * spends beyond it is envgap's own.
 */
import type { Client } from '@temporalio/client';
import { Worker, type NativeConnection } from '@temporalio/worker';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Sandbox, sandboxIdentity } from '../sandbox';
import { readProjectDir } from '../agents/projectDir';
import { RUNNERS } from '../activities/runners';
import { loadCatalog } from '../catalog/catalog';
import type { Db } from '../db/connect';
import { instanceIterations } from '../db/iterations';
import { LANGUAGES, type Language } from '../domain/instance';
import { DEFAULT_LIMITS, INSTANCE_REVISION, type InstanceInput } from '../domain/study';
import { connectDocker } from '../infra/docker';
import { CACHE_BINDS } from '../infra/caches';
import { ensureRuntimeImage } from '../infra/images';
import { CA_ENV } from '../infra/recipes';
import { loadSettings } from '../infra/settings';
import { QUEUES } from '../workers/queues';
import type { instanceWorkflow } from '../workflows/instance';
import type { FloorActivities, floorWorkflow } from './floorWorkflow';
import { withRealWorker } from './realWorker';
import { runBench } from './run';

const REPO = path.resolve(__dirname, '../../..');
const CORPUS = path.join(REPO, 'corpus/quickstart');
/** One successful recorded project per ecosystem. */
const SAMPLE: Record<Language, string> = { python: 'p_04', java: 'p_13', javascript: 'p_49', cpp: 'p_02' };
const CONTAINER_STEPS = ['container', 'setup', 'system', 'install', 'configure', 'build', 'run'];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function sampleDir(language: Language): string {
  const dir = path.join(CORPUS, language, SAMPLE[language], '1');
  const last = Math.max(...fs.readdirSync(dir).map(Number));
  return path.join(dir, String(last));
}

async function instanceTimings(language: Language, n: number, client: Client, db: Db) {
  const task = loadCatalog().task(SAMPLE[language]);
  const corpus = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-bench-corpus-'));
  const rows: { wall: number; container: number; execution: number; floor: number }[] = [];
  let last = '';
  for (let i = 0; i <= n; i++) {
    const input: InstanceInput = {
      instanceId: `bench-${process.pid}/replay/${language}/${task.id}/${i + 1}`, study: `bench-${process.pid}`,
      agent: { kind: 'replay', name: 'replay', path: corpus }, language,
      task: { id: task.id, title: task.title, domain: task.domain }, trial: i + 1, budget: 0, limits: DEFAULT_LIMITS,
      revision: INSTANCE_REVISION,
    };
    fs.cpSync(sampleDir(language), path.join(corpus, language, task.id, String(i + 1), '0'), { recursive: true });
    const started = Date.now();
    await client.workflow.execute<typeof instanceWorkflow>('instanceWorkflow', { workflowId: input.instanceId, taskQueue: QUEUES.cpu, args: [input] });
    const wall = Date.now() - started;
    const execution = (await instanceIterations(db, input.instanceId))[0]?.execution;
    if (!execution?.success) throw new Error(`${input.instanceId} did not succeed; the benchmark needs a working sample`);
    const d = execution.durations as Record<string, number>;
    const container = CONTAINER_STEPS.reduce((sum, k) => sum + (d[k] ?? 0), 0);
    if (i > 0) rows.push({ wall, container, execution: d.total ?? container, floor: await floorMs(client, container) }); // the first instance warms caches
    last = input.instanceId;
    if (process.env.ENVGAP_BENCH_TIMELINE && i === n) console.log(`  wall ${wall} ms, execution steps (ms): ${JSON.stringify(d)}`);
  }
  if (process.env.ENVGAP_BENCH_TIMELINE) {
    await printTimeline(client, last);
    console.log('  Temporal floor, the last one:');
    await printTimeline(client, `${FLOOR_QUEUE}-${floorRuns}`);
  }
  return rows;
}

const FLOOR_QUEUE = `envgap-bench-floor-${process.pid}`;
let floorRuns = 0;

/** What a workflow of one activity waiting `ms` takes beyond `ms`: Temporal's own share of an instance here. */
async function floorMs(client: Client, ms: number): Promise<number> {
  const started = Date.now();
  await client.workflow.execute<typeof floorWorkflow>('floorWorkflow', { workflowId: `${FLOOR_QUEUE}-${++floorRuns}`, taskQueue: FLOOR_QUEUE, args: [ms] });
  return Date.now() - started - ms;
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

/** A POSIX shell word for each argument, so that a runner's argv can be run with its output discarded. */
function shellCommand(argv: string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

async function straceOverhead(language: Language, runs: number) {
  const docker = connectDocker();
  const image = await ensureRuntimeImage(docker, loadSettings(), language, () => undefined);
  const settings = loadSettings();
  const identity = sandboxIdentity({ instanceId: `bench/strace/${language}/${process.pid}`, protocol: 'envgap', role: 'bench', attempt: 1 });
  const session = await Sandbox.open(
    { docker, settings },
    { image, ...identity, limits: DEFAULT_LIMITS, env: CA_ENV, caches: { binds: CACHE_BINDS, mode: 'install-only' }, network: 'bridge', ptrace: true },
  );
  try {
    const { files } = await readProjectDir(sampleDir(language));
    const built = await RUNNERS[language](session, files, DEFAULT_LIMITS);
    if (!built.success) throw new Error(`the ${language} sample failed: ${built.errorOutput?.slice(-500)}`);
    // The runner's own run of the program, as it ran it: untraced, and traced exactly as recorded.
    if (!built.run) throw new Error(`the ${language} runner did not run the program`);
    const { command, traced: tracedCommand } = built.run;
    const time = async (argv: string[]) => (await session.exec(['sh', '-c', `${shellCommand(argv)} >/dev/null 2>&1`], { step: 'bench', timeoutS: 120 })).durationMs;
    const plain: number[] = [];
    const traced: number[] = [];
    for (let i = 0; i < runs; i++) {
      plain.push(await time(command));
      traced.push(await time(tracedCommand));
    }
    return { plain: median(plain), traced: median(traced) };
  } finally {
    await session.close();
  }
}

async function main() {
  const n = Number(process.argv[2] ?? 5);
  const languages = (process.argv[3]?.split(',') ?? [...LANGUAGES]) as Language[];
  const floorActivities: FloorActivities = { waitFor: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };
  const floorWorker = (connection: NativeConnection) => Worker.create({ connection, taskQueue: FLOOR_QUEUE, workflowsPath: require.resolve('./floorWorkflow'), activities: floorActivities });
  await withRealWorker(
    async ({ settings, db, client }) => {
      console.log(`database: ${settings.databaseUrl ? 'Postgres (DATABASE_URL)' : 'the private Postgres server of a fresh state folder'}; ${n} warm instances per ecosystem after one warm-up`);
      console.log('ecosystem   task  s/instance (median, min-max)  harness share  harness ms  Temporal floor ms  envgap own ms (in execution)  strace untraced/traced ms  ratio');
    for (const language of languages) {
      const rows = await instanceTimings(language, n, client, db);
      const wall = rows.map((r) => r.wall / 1000);
      const share = median(rows.map((r) => (r.wall - r.container) / r.wall));
      const harnessMs = median(rows.map((r) => r.wall - r.container));
      const floor = median(rows.map((r) => r.floor));
      const own = median(rows.map((r) => r.wall - r.container - r.floor));
      // Of envgap's own: inside the execution activity (between its container steps) and around it.
      const inside = median(rows.map((r) => r.execution - r.container));
      const s = await straceOverhead(language, 7);
      console.log(
        `${language.padEnd(11)} ${SAMPLE[language]}  ${median(wall).toFixed(2).padStart(6)} (${Math.min(...wall).toFixed(2)}-${Math.max(...wall).toFixed(2)})` +
          `${(share * 100).toFixed(1).padStart(18)}%  ${String(harnessMs).padStart(10)}  ${String(floor).padStart(17)}  ${String(own).padStart(13)} ${`(${inside})`.padStart(14)}  ${String(s.plain).padStart(14)}/${String(s.traced).padEnd(10)}  ${(s.traced / s.plain).toFixed(2)}`,
      );
    }
    console.log('targets: warm instance <= 15 s, harness share <= 2%, traced/untraced <= 1.5');
    },
    async (connection) => [await floorWorker(connection)],
  );
}

runBench(main);
