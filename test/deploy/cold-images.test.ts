import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadCatalog } from '../../src/catalog/catalog';
import { parseStudyFile } from '../../src/cli/studyFile';
import type { InstanceRecord } from '../../src/domain/instance';
import { connectDocker } from '../../src/infra/docker';
import { loadSettings } from '../../src/infra/settings';
import { createCpuWorker, runInBackground, type RunningWorker } from '../../src/workers/cpuWorker';
import { QUEUES } from '../../src/workers/queues';
import type { studyWorkflow } from '../../src/workflows/study';
import { REPO_ROOT } from '../helpers/harness';
import { freshDatabase } from '../helpers/postgres';
import { startDevServer, type DevServer } from '../helpers/temporal';

// Images before instances, from cold: the quickstart study (15 instances, four languages, concurrency
// 2) with no runtime image present. A CA bundle that differs only by a comment gives the same images
// under new tags, so the images other tests use are left alone; they are removed at the end.
const docker = connectDocker();
let server: DevServer;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let worker: RunningWorker;
let caBundle: string;

beforeAll(async () => {
  server = await startDevServer();
  database = await freshDatabase();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-cold-'));
  caBundle = path.join(dir, 'ca.crt');
  fs.writeFileSync(caBundle, `# envgap cold-image test ${process.pid} ${Date.now()}\n` + fs.readFileSync(loadSettings().caBundle, 'utf8'));
  const settings = { ...loadSettings(), caBundle, stateDir: dir };
  worker = runInBackground(await createCpuWorker({ address: server.address, namespace: 'default', db: database.db, settings }));
}, 180000);

afterAll(async () => {
  await worker?.stop();
  await database?.drop();
  await server?.stop();
});

test('with no runtime image present, the quickstart study prepares its images first and records 15 of 15 with no error', async () => {
  const before = new Set((await docker.listImages()).flatMap((i) => i.RepoTags ?? []));
  const file = path.join(REPO_ROOT, 'studies/quickstart.yaml');
  const study = { ...parseStudyFile(fs.readFileSync(file, 'utf8'), file, loadCatalog()), name: `cold-${process.pid}`, concurrency: 2 };
  const started = Date.now();
  const summary = await server.client.workflow.execute<typeof studyWorkflow>('studyWorkflow', { workflowId: study.name, taskQueue: QUEUES.cpu, args: [study] });
  process.stdout.write(`cold quickstart study: ${((Date.now() - started) / 1000).toFixed(0)} s\n`);

  // The deployment's images (envgap/deploy-*) may be built meanwhile by test/deploy/compose.test.ts, in parallel.
  const built = (await docker.listImages()).flatMap((i) => i.RepoTags ?? []).filter((t) => t.startsWith('envgap/') && !t.startsWith('envgap/deploy-') && !before.has(t));
  try {
    expect(built.map((t) => t.split(':')[0]).sort()).toEqual(['envgap/cpp', 'envgap/java', 'envgap/javascript', 'envgap/python']);
    expect(summary.progress).toMatchObject({ total: 15, done: 15, counts: { success: 15, failed: 0, error: 0 } });
    const rows = await database.db.selectFrom('instances').selectAll().execute();
    expect(rows.map((r) => (r.record as unknown as InstanceRecord).error ?? null)).toEqual(Array(15).fill(null));

    // Every image was ready before the first instance started, each built by one activity.
    const events = (await server.client.workflow.getHandle(study.name).fetchHistory()).events!;
    const firstChild = events.findIndex((e) => e.startChildWorkflowExecutionInitiatedEventAttributes);
    const prepares = events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'prepareImage');
    expect(prepares).toHaveLength(4);
    const lastPrepared = events.reduce((last, e, i) => (e.activityTaskCompletedEventAttributes ? i : last), -1);
    expect(lastPrepared).toBeLessThan(firstChild);
  } finally {
    for (const tag of built) await docker.getImage(tag).remove({ force: true }).catch(() => undefined);
  }
}, 1500000);
