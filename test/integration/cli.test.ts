import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../helpers/harness';

// The built CLI as a user runs it.
const CLI = path.join(REPO_ROOT, 'bin/envgap.js');

beforeAll(() => {
  if (!fs.existsSync(path.join(REPO_ROOT, 'dist/src/cli/main.js'))) throw new Error('build first (npm run build); scripts/test.sh does');
});

test('--help lists the commands', () => {
  const out = execFileSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
  for (const c of ['study', 'instance', 'worker', 'cleanup', 'parse-manifest', 'export', 'metrics', 'setup']) expect(out).toContain(c);
  const study = execFileSync(process.execPath, [CLI, 'study', '--help'], { encoding: 'utf8' });
  for (const c of ['run', 'status', 'cancel']) expect(study).toContain(c);
});

test('worker offers the cpu and gpu queues; a gpu worker without GPUs refuses, saying what is missing', () => {
  const bad = spawnSync(process.execPath, [CLI, 'worker', '--queue', 'tpu'], { encoding: 'utf8', env: { ...process.env, TEMPORAL_ADDRESS: '127.0.0.1:1' } });
  expect(bad.status).toBe(1);
  expect(bad.stderr).toMatch(/argument 'tpu' is invalid. Allowed choices are cpu, gpu/);
  // This machine has no NVIDIA driver (a GPU machine would go on to check Docker's NVIDIA runtime).
  const gpu = spawnSync(process.execPath, [CLI, 'worker', '--queue', 'gpu'], { encoding: 'utf8', env: { ...process.env, TEMPORAL_ADDRESS: '127.0.0.1:1', PATH: '/usr/bin:/bin' } });
  expect(gpu.status).toBe(1);
  expect(gpu.stderr).toMatch(/a gpu worker needs NVIDIA GPUs: nvidia-smi on this machine did not run \(spawn nvidia-smi ENOENT\); install the NVIDIA driver, or run a cpu worker/);
});

test('parse-manifest prints D1 as JSON, following -r includes relative to the file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-cli-'));
  fs.mkdirSync(path.join(dir, 'reqs'));
  fs.writeFileSync(path.join(dir, 'reqs/base.txt'), 'Django_REST.framework>=3.14 # api\n');
  fs.writeFileSync(path.join(dir, 'requirements.txt'), '-r reqs/base.txt\r\nrequests[socks]==2.32.3 ; python_version >= "3.8" \\\r\n    --hash=sha256:abc\r\n-e git+https://github.com/org/proj.git#egg=My_Proj\r\n');
  const out = execFileSync(process.execPath, [CLI, 'parse-manifest', path.join(dir, 'requirements.txt'), '--ecosystem', 'python', '--format', 'json'], { encoding: 'utf8' });
  const parsed = JSON.parse(out);
  expect(parsed.ecosystem).toBe('python');
  expect(parsed.dependencies.map((d: { name: string }) => d.name)).toEqual(['django-rest-framework', 'requests', 'my-proj']);
});

test('a bad manifest fails with the file and line', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-cli-'));
  fs.writeFileSync(path.join(dir, 'requirements.txt'), 'flask==2.0\nnumpy=1.2\n');
  const r = spawnSync(process.execPath, [CLI, 'parse-manifest', path.join(dir, 'requirements.txt'), '--ecosystem', 'python'], { encoding: 'utf8' });
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(/requirements\.txt:2/);
});

test('a bad study file fails before anything starts, naming field and line', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-cli-'));
  const file = path.join(dir, 'bad.yaml');
  fs.writeFileSync(file, 'name: bad\nagents: []\nlanguages: [python]\ntasks: [p_01]\n');
  const r = spawnSync(process.execPath, [CLI, 'study', 'run', file], { encoding: 'utf8', env: { ...process.env, TEMPORAL_ADDRESS: '127.0.0.1:1' } });
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(/bad\.yaml:2:\d+: agents: /);
});
