import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { connectDocker } from '../../src/infra/docker';
import type { studyWorkflow } from '../../src/workflows/study';
import { REPO_ROOT } from '../helpers/harness';
import { waitFor } from '../helpers/processes';
import { useWorkerProcesses } from '../helpers/workerProcesses';

// A study is never left without a worker and silent: `study run` that relied on another process's
// worker (an `envgap worker`, or another command's in-process worker whose study ended) watches the cpu
// queue's pollers, and when that worker goes, starts its own and says so; the study finishes.
const h = useWorkerProcesses();
const CLI = path.join(REPO_ROOT, 'bin/envgap.js');

async function instanceContainers(study: string): Promise<string[]> {
  const list = await connectDocker().listContainers({ all: true, filters: { label: ['envgap.instance'] } });
  return list.filter((c) => c.Labels['envgap.instance'].startsWith(`${study}/`)).map((c) => c.Names[0]);
}

test('study run relying on a worker that stops starts its own worker, says so, and the study finishes', async () => {
  const name = `watch-${process.pid}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-watch-'));
  const file = path.join(dir, `${name}.yaml`);
  fs.writeFileSync(file, `name: ${name}\nagents:\n  - kind: replay\n    name: replay\n    path: ${path.join(REPO_ROOT, 'corpus/quickstart')}\nlanguages: [python]\ntasks: [p_30, p_43, p_04]\nconcurrency: 1\n`);

  const worker = h.start(fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-watch-worker-')));
  await waitFor('the worker to poll', () => worker.output().includes('worker polling'), 120000);

  const run = spawn(process.execPath, [CLI, 'study', 'run', file], {
    env: { ...process.env, TEMPORAL_ADDRESS: h.server.address, DATABASE_URL: h.database.url, ENVGAP_STATE: fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-watch-cli-')) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let said = '';
  let printed = '';
  run.stderr!.on('data', (d: Buffer) => (said += d.toString()));
  run.stdout!.on('data', (d: Buffer) => (printed += d.toString()));
  const exited = new Promise<number | null>((r) => run.once('exit', (code) => r(code)));
  try {
    await waitFor('study run to rely on the running worker', () => said.includes('a worker already polls the cpu queue; using it'), 120000);
    expect(said).not.toContain('starting one in this process');
    await waitFor("an instance's container (the worker is at work)", async () => (await instanceContainers(name)).length > 0, 120000);

    worker.kill('SIGTERM'); // `envgap worker` stopped: it hands its activities back at once
    await new Promise((r) => (worker.exitCode !== null ? r(null) : worker.once('exit', r)));

    await waitFor('study run to start its own worker', () => said.includes('the worker this study relied on is gone: no worker polls the cpu queue; starting one in this process'), 60000);
    expect(await exited).toBe(0);
  } finally {
    if (run.exitCode === null) run.kill('SIGKILL');
  }
  const summary = await h.server.client.workflow.getHandle<typeof studyWorkflow>(name).result();
  expect(summary.progress).toMatchObject({ total: 3, done: 3, counts: { success: 3, failed: 0, error: 0 } });
  expect(printed).toMatch(/replay\s+python\s+p_30\s+1\s+success/);
  expect(await instanceContainers(name)).toEqual([]);
}, 600000);
