import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../helpers/harness';
import { freshDatabase } from '../helpers/postgres';
import { startDevServer, type DevServer } from '../helpers/temporal';

// The CLI as a user drives it: study run with an in-process worker, a second run that only reports,
// status, instance retry and export, against a real Temporal server, Postgres and Docker.
const CLI = path.join(REPO_ROOT, 'bin/envgap.js');
let server: DevServer;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let env: NodeJS.ProcessEnv;
let studyFile: string;

beforeAll(async () => {
  if (!fs.existsSync(path.join(REPO_ROOT, 'dist/src/cli/main.js'))) throw new Error('build first (npm run build); scripts/test.sh does');
  server = await startDevServer();
  database = await freshDatabase();
  env = { ...process.env, TEMPORAL_ADDRESS: server.address, DATABASE_URL: database.url, ENVGAP_STATE: fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-clistate-')) };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-clistudy-'));
  studyFile = path.join(dir, 'small.yaml');
  fs.writeFileSync(studyFile, `name: small\nagents:\n  - kind: replay\n    name: replay\n    path: ${path.join(REPO_ROOT, 'corpus/quickstart')}\nlanguages: [python]\ntasks: [p_43, p_30]\nconcurrency: 2\n`);
}, 120000);

afterAll(async () => {
  await database?.drop();
  await server?.stop();
});

function envgap(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8', timeout: 300000 });
}

test('study run, run again, status, instance retry, export', () => {
  const first = envgap('study', 'run', studyFile);
  expect(first.stderr).toContain('starting one in this process');
  expect(first.status).toBe(0);
  expect(first.stdout).toMatch(/replay\s+python\s+p_30\s+1\s+success\s+1\s+MissingDep\s+pygments\s+markdown pygments\s+markdown pygments/);
  expect(first.stdout).toMatch(/replay\s+python\s+p_43\s+1\s+success\s+0/);

  const again = envgap('study', 'run', studyFile);
  expect(again.status).toBe(0);
  expect(again.stderr).toMatch(/already finished/);
  expect(again.stdout).toContain('p_30');

  const status = envgap('study', 'status', 'small');
  expect(status.stdout).toMatch(/COMPLETED/);
  expect(status.stdout).toMatch(/2\/2 done: success 2, failed 0, error 0/);

  const retry = envgap('instance', 'retry', 'small/replay/python/p_43/1');
  expect(retry.status).toBe(0);
  expect(retry.stdout).toMatch(/p_43\s+1\s+success/);

  const show = envgap('instance', 'show', 'small/replay/python/p_30/1');
  expect(show.status).toBe(0);
  expect(show.stdout).toMatch(/== iteration 0 \(Gen\)\n[\s\S]*entry: python main\.py[\s\S]*outcome: failed at run, class MissingDep, exit 1\nerror tail:\n[\s\S]*ModuleNotFoundError: No module named 'markdown'/);
  expect(show.stdout).toMatch(/== iteration 1 \(Repair\)\n[\s\S]*outcome: success \(program\)/);
  expect(envgap('instance', 'show', 'small/replay/python/p_30/1', '--log').stdout).toContain('$ pip install --no-input -r requirements.txt');
  const none = envgap('instance', 'show', 'small/replay/python/p_99/1');
  expect(none.status).not.toBe(0);
  expect(none.stderr).toContain('instance small/replay/python/p_99/1 has no recorded iteration in the results database');

  const out = path.join(path.dirname(studyFile), 'small.jsonl');
  expect(envgap('export', 'small', '--out', out).status).toBe(0);
  const records = fs.readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  expect(records.map((r) => `${r.task}:${r.status}`).sort()).toEqual(['p_30:success', 'p_43:success']);
  expect(records.every((r) => r.schema === 'envgap.instance/v1')).toBe(true);

  const metrics = envgap('metrics', '--input', out, '--format', 'json');
  expect(metrics.status).toBe(0);
  expect(JSON.parse(metrics.stdout).cells[0]).toMatchObject({ agent: 'replay', language: 'python', n: 2, sr0: 0.5, final_sr: 1 });

  // The report of the study from the database links its instances to the Temporal UI given.
  const html = path.join(path.dirname(studyFile), 'small.html');
  const report = envgap('report', 'small', '--out', html, '--ui', 'http://ui.example:8080/');
  expect(report.status).toBe(0);
  expect(report.stderr).toContain('report: 2 instance, 0 README and 0 readiness records drawn to');
  expect(fs.readFileSync(html, 'utf8')).toContain(`"url":"http://ui.example:8080/namespaces/default/workflows/${encodeURIComponent('small/replay/python/p_30/1')}"`);
}, 400000);
