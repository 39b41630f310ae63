import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../helpers/harness';
import { freshDatabase } from '../helpers/postgres';
import { startDevServer, type DevServer } from '../helpers/temporal';

// `envgap study re-resolve` as a user drives it, on a finished quickstart-style study (recorded
// answers, a real Temporal server, Postgres, Docker, pip and PyPI): the study resolved as of
// 2023-06-01, then its final manifests installed again today. The unpinned `requests` moved on; the
// pinned `idna==3.4`, which has no dependencies, did not.
const CLI = path.join(REPO_ROOT, 'bin/envgap.js');
let server: DevServer;
let database: Awaited<ReturnType<typeof freshDatabase>>;
let env: NodeJS.ProcessEnv;
let studyFile: string;

beforeAll(async () => {
  if (!fs.existsSync(path.join(REPO_ROOT, 'dist/src/cli/main.js'))) throw new Error('build first (npm run build); scripts/test.sh does');
  server = await startDevServer();
  database = await freshDatabase();
  env = { ...process.env, TEMPORAL_ADDRESS: server.address, DATABASE_URL: database.url, ENVGAP_STATE: fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-reresolve-state-')) };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-reresolve-'));
  const answer = (task: string, requirements: string, program: string) => {
    const at = path.join(dir, 'corpus/python', task, '1/0');
    fs.mkdirSync(at, { recursive: true });
    fs.writeFileSync(path.join(at, 'requirements.txt'), requirements);
    fs.writeFileSync(path.join(at, 'main.py'), program);
  };
  answer('p_01', 'requests\n', 'import requests\nprint(requests.__version__)\n');
  answer('p_02', 'idna==3.4\n', 'import idna\nprint(idna.encode("example.com"))\n');
  studyFile = path.join(dir, 'dated.yaml');
  fs.writeFileSync(studyFile, 'name: dated\nagents:\n  - kind: replay\n    name: replay\n    path: corpus\nlanguages: [python]\ntasks: [p_01, p_02]\nconcurrency: 2\nresolve_as_of: 2023-06-01\n');
}, 120000);

afterAll(async () => {
  await database?.drop();
  await server?.stop();
});

function envgap(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8', timeout: 400000 });
}

test('a study resolved as of 2023-06-01, re-resolved today: which manifests still install and which D2 sets changed', () => {
  const run = envgap('study', 'run', studyFile);
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(/p_01\s+1\s+success/);
  expect(run.stdout).toMatch(/p_02\s+1\s+success/);
  const exported = envgap('export', 'dated');
  const records = exported.stdout.trim().split('\n').map((l) => JSON.parse(l));
  expect(records.map((r) => r.provenance.resolve_as_of)).toEqual([
    { date: '2023-06-01', pinned_by: 'pip 26.0.1 --uploaded-prior-to' },
    { date: '2023-06-01', pinned_by: 'pip 26.0.1 --uploaded-prior-to' },
  ]);
  expect(records.find((r) => r.task === 'p_01').installed_versions.requests).toBe('2.31.0');

  const first = envgap('study', 're-resolve', 'dated');
  expect(first.stderr).toContain('re-resolving the final manifests of study "dated" as of today');
  expect(first.status).toBe(0);
  expect(first.stdout).toMatch(/replay\s+python\s+p_01\s+1\s+changed\s+yes\s+yes\s+as of 2023-06-01\s+.*requests 2\.31\.0->2\.\d+/);
  expect(first.stdout).toMatch(/replay\s+python\s+p_02\s+1\s+same\s+yes\s+yes\s+as of 2023-06-01\s+-/);
  expect(first.stdout).toContain('re-resolved on ');
  expect(first.stdout).toContain('stopped installing: 0 (0.0%)');
  expect(first.stdout).toContain('still install, D2 changed: 1 (50.0%)');

  // The same day again: reported as it ended, nothing installed again.
  const again = envgap('study', 're-resolve', 'dated', '--format', 'json');
  expect(again.status).toBe(0);
  expect(again.stderr).toContain('ran already or is running');
  const report = JSON.parse(again.stdout);
  expect(report.summary).toMatchObject({ manifests: 2, uninstallable: 0, changed: 1, same: 1, changed_share: 0.5 });
  expect(report.errors).toEqual([]);
  const p01 = report.instances.find((r: { task: string }) => r.task === 'p_01');
  expect(p01).toMatchObject({ schema: 'envgap.reresolution/v1', status: 'changed', installs: true, runs: true, installed_then: { requests: '2.31.0' }, originally: { resolve_as_of: '2023-06-01' } });
  expect(p01.diff.changed.map((c: { name: string }) => c.name)).toContain('requests');
}, 900000);

test('refused for a study that is not in the results database', () => {
  const none = envgap('study', 're-resolve', 'nope');
  expect(none.status).not.toBe(0);
  expect(none.stderr).toContain('study "nope" is not in the results database');
});
