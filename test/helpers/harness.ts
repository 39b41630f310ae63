import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createActivities } from '../../src/activities';
import { createAgent } from '../../src/agents';
import { loadCatalog } from '../../src/catalog/catalog';
import { BlobStore } from '../../src/db/blobs';
import type { Db } from '../../src/db/connect';
import { connectDocker } from '../../src/infra/docker';
import { loadSettings } from '../../src/infra/settings';
import { WORKFLOWS_PATH } from '../../src/workers/bundle';
import { QUEUES } from '../../src/workers/queues';
import type { DevServer } from './temporal';

/** A real cpu worker (real activities: Docker, database, agents) inside the test process. */
let runtimeInstalled = false;

export async function startTestWorker(server: DevServer, db: Db): Promise<{ stop(): Promise<void> }> {
  if (!runtimeInstalled) {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    runtimeInstalled = true;
  }
  const connection = await NativeConnection.connect({ address: server.address });
  const worker = await Worker.create({
    connection,
    taskQueue: QUEUES.cpu,
    workflowsPath: WORKFLOWS_PATH,
    activities: createActivities({
      db,
      blobs: new BlobStore(db),
      docker: connectDocker(),
      settings: loadSettings(),
      catalog: loadCatalog(),
      createAgent: (spec) => createAgent(spec),
    }),
  });
  const running = worker.run();
  return {
    async stop() {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
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

export const REPO_ROOT = path.resolve(__dirname, '../..');
