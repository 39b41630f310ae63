import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Db } from '../../src/db/connect';
import { loadSettings } from '../../src/infra/settings';
import { createCpuWorker, runInBackground, type RunningWorker } from '../../src/workers/cpuWorker';
import { freshDatabase } from './postgres';
import { startDevServer, type DevServer } from './temporal';

export const REPO_ROOT = path.resolve(__dirname, '../..');

/** The real cpu worker (real activities: Docker, database, agents) inside the test process. */
export async function startTestWorker(server: DevServer, db: Db): Promise<RunningWorker> {
  const settings = { ...loadSettings(), stateDir: fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-teststate-')) };
  return runInBackground(await createCpuWorker({ address: server.address, namespace: 'default', db, settings }));
}

export interface ProtocolHarness {
  server: DevServer;
  database: Awaited<ReturnType<typeof freshDatabase>>;
}

/** For one test file: a Temporal dev server, a fresh Postgres database and a worker, torn down after. */
export function useProtocolHarness(): ProtocolHarness {
  const h = {} as ProtocolHarness;
  let worker: RunningWorker | undefined;
  beforeAll(async () => {
    h.server = await startDevServer();
    h.database = await freshDatabase();
    worker = await startTestWorker(h.server, h.database.db);
  }, 180000);
  afterAll(async () => {
    await worker?.stop();
    await h.database?.drop();
    await h.server?.stop();
  });
  return h;
}

/** Writes a replay corpus: iterations[i] is the project returned at iteration i. */
export function writeReplayCorpus(language: string, task: string, iterations: Record<string, string>[], trial = 1): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-corpus-'));
  iterations.forEach((files, i) => {
    for (const [name, content] of Object.entries(files)) {
      const p = path.join(root, language, task, String(trial), String(i), name);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, content);
    }
  });
  return root;
}
