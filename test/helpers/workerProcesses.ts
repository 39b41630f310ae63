import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from './harness';
import { freshDatabase } from './postgres';
import { startDevServer, type DevServer } from './temporal';

const CLI = path.join(REPO_ROOT, 'bin/envgap.js');

export interface WorkerProcesses {
  server: DevServer;
  database: Awaited<ReturnType<typeof freshDatabase>>;
  /** Every worker started, so that the tests can kill them and afterAll kills what is left. */
  workers: ChildProcess[];
  /**
   * `envgap worker --queue cpu` (the built CLI, or `cli`) against the test's server and database, with
   * its own state folder; `output()` is what it wrote to stderr so far.
   */
  start(stateDir: string, opts?: { cli?: string; env?: Record<string, string> }): ChildProcess & { output(): string };
}

/** For one test file: a real Temporal server and Postgres, and `envgap worker` processes to start and kill. */
export function useWorkerProcesses(): WorkerProcesses {
  const h = { workers: [] as ChildProcess[] } as WorkerProcesses;
  beforeAll(async () => {
    if (!fs.existsSync(path.join(REPO_ROOT, 'dist/src/cli/main.js'))) throw new Error('build first (npm run build); scripts/test.sh does');
    h.server = await startDevServer();
    h.database = await freshDatabase();
  }, 120000);
  afterAll(async () => {
    for (const w of h.workers) if (w.exitCode === null) w.kill('SIGKILL');
    await h.database?.drop();
    await h.server?.stop();
  });
  h.start = (stateDir, opts = {}) => {
    const child = spawn(process.execPath, [opts.cli ?? CLI, 'worker', '--queue', 'cpu'], {
      env: { ...process.env, TEMPORAL_ADDRESS: h.server.address, DATABASE_URL: h.database.url, ENVGAP_STATE: stateDir, ...opts.env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let text = '';
    child.stderr!.on('data', (d: Buffer) => (text = (text + d.toString()).slice(-100_000)));
    h.workers.push(child);
    return Object.assign(child, { output: () => text });
  };
  return h;
}
