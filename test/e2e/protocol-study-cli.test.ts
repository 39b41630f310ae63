import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseReadinessStudyFile } from '../../src/cli/readinessStudyFile';
import { parseReadmeStudyFile } from '../../src/cli/readmeStudyFile';
import { listReadmeInstances } from '../../src/readme/dataset';
import { QUEUES } from '../../src/workers/queues';
import type { StudyProgress } from '../../src/workflows/engine';
import { referenceData } from '../helpers/data';
import { REPO_ROOT } from '../helpers/harness';
import { freshDatabase } from '../helpers/postgres';
import { startDevServer, type DevServer } from '../helpers/temporal';
import { waitFor } from '../helpers/waitFor';

// Study control as a user drives it, on a README and on a readiness study: pause before any worker
// polls, `study run` following the paused study with its own worker, status while paused, resume,
// status when finished, export, instance retry, retry-errors. Real Temporal, Postgres and Docker.
const CLI = path.join(REPO_ROOT, 'bin/envgap.js');
let server: DevServer;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let env: NodeJS.ProcessEnv;
let dir: string;

beforeAll(async () => {
  if (!fs.existsSync(path.join(REPO_ROOT, 'dist/src/cli/main.js'))) throw new Error('build first (npm run build); scripts/test.sh does');
  server = await startDevServer();
  database = await freshDatabase();
  env = { ...process.env, TEMPORAL_ADDRESS: server.address, DATABASE_URL: database.url, ENVGAP_STATE: fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-protocli-')) };
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-protostudy-'));
}, 120000);

afterAll(async () => {
  await database?.drop();
  await server?.stop();
});

function envgap(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8', timeout: 600000 });
}

/** `envgap study run FILE` in the background: its exit and what it printed. */
function runInBackground(file: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, 'study', 'run', file], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/**
 * The control sequence both protocols share. The study is started without a worker and paused at
 * once, so nothing can start before the pause; `study run` then follows it with an in-process worker.
 */
async function controlSequence(name: string, file: string, input: unknown, workflowType: string, protocol: string, total: number) {
  await server.client.workflow.start(workflowType, { workflowId: name, taskQueue: QUEUES.cpu, args: [input] });
  const pause = envgap('study', 'pause', name);
  expect(pause.stderr).toContain(`study "${name}" paused`);
  const following = runInBackground(file);
  const handle = server.client.workflow.getHandle(name);
  await waitFor('the study to be paused with a worker answering', async () => (await handle.query<StudyProgress>('progress').catch(() => null))?.paused === true, 300000, 500);
  const paused = envgap('study', 'status', name);
  expect(paused.stdout).toContain(`study ${name} (${protocol} protocol): RUNNING`);
  expect(paused.stdout).toMatch(new RegExp(`0/${total} done: completed 0, error 0 \\(paused`));
  expect(envgap('study', 'resume', name).stderr).toContain(`study "${name}" resumed`);
  const run = await following;
  expect(run.stderr).toContain('is already running; following it');
  expect(run.code).toBe(0);

  const status = envgap('study', 'status', name);
  expect(status.stdout).toContain(`(${protocol} protocol): COMPLETED`);
  expect(status.stdout).toContain(`${total}/${total} done: completed ${total}, error 0`);
  const out = path.join(dir, `${name}.jsonl`);
  expect(envgap('export', name, '--out', out).status).toBe(0);
  const records = fs.readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  expect(records).toHaveLength(total);
  expect(envgap('study', 'retry-errors', name).stderr).toContain(`study "${name}" has no error instance`);
  expect(envgap('study', 'pause', name).stderr).toContain(`study "${name}" is not running (COMPLETED)`);
  return records;
}

test('a README study: pause, follow, status, resume, export, instance retry, retry-errors', async () => {
  const file = path.join(dir, 'readme-cli.yaml');
  fs.writeFileSync(
    file,
    `name: readme-cli\nprotocol: readme\ndata: ${referenceData('data', 'enconda')}\ninstances: [jaraco_inflect_error_readme_1, rstcheck_rstcheck_error_readme_1]\nagents:\n  - kind: oracle\n    name: oracle\njudge: deterministic\npass: { run: false }\nconcurrency: 1\n`,
  );
  const input = parseReadmeStudyFile(fs.readFileSync(file, 'utf8'), file, listReadmeInstances);
  const records = await controlSequence('readme-cli', file, input, 'readmeStudyWorkflow', 'readme', 2);
  expect(records.every((r) => r.schema === 'envgap.readme/v1' && r.status === 'completed')).toBe(true);
  const retry = envgap('instance', 'retry', 'readme-cli/oracle/jaraco_inflect_error_readme_1/1');
  expect(retry.stderr).toContain('readme-cli/oracle/jaraco_inflect_error_readme_1/1: completed');
  expect(retry.status).toBe(0);
}, 900000);

test('a readiness study: pause, follow, status, resume, export, instance retry, retry-errors', async () => {
  const file = path.join(dir, 'readiness-cli.yaml');
  fs.writeFileSync(
    file,
    `name: readiness-cli\nprotocol: readiness\nagents:\n  - kind: replay\n    name: replay\n    path: ${path.join(REPO_ROOT, 'corpus/readiness/sessions')}\nrepos:\n  - id: numpy-stats\n    source: { path: ${path.join(REPO_ROOT, 'corpus/readiness/repos/numpy-stats')} }\n    supports: [cpu]\n    entry:\n      cpu: PYTHONPATH=. python scripts/run_baseline.py --device cpu\ngpu: off\nconcurrency: 1\nlimits: { memory_mb: 4096, cpus: 2 }\n`,
  );
  const input = parseReadinessStudyFile(fs.readFileSync(file, 'utf8'), file);
  const records = await controlSequence('readiness-cli', file, input, 'readinessStudyWorkflow', 'readiness', 1);
  expect(records[0]).toMatchObject({ schema: 'envgap.readiness/v1', status: 'completed', repo: 'numpy-stats' });
  const retry = envgap('instance', 'retry', 'readiness-cli/replay/numpy-stats/1');
  expect(retry.stderr).toContain('readiness-cli/replay/numpy-stats/1: completed');
  expect(retry.status).toBe(0);
}, 900000);
