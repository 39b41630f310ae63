import { Client } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { openDb } from '../cli/context';
import type { Db } from '../db/connect';
import type { Settings } from '../infra/settings';
import { startEphemeralDevServer } from '../infra/temporal';
import { createCpuWorker } from '../workers/cpuWorker';
import { throwAwayState } from './run';

export interface RealWorkerHarness {
  settings: Settings;
  db: Db;
  client: Client;
}

/**
 * The real-work benchmarks' harness: a throw-away state folder, Temporal dev server and results
 * database, with envgap's cpu worker (and the extra workers `more` makes on its connection) running
 * while `measure` runs; then all of it is shut down and removed.
 */
export async function withRealWorker(measure: (h: RealWorkerHarness) => Promise<void>, more: (connection: NativeConnection) => Promise<Worker[]> = async () => []): Promise<void> {
  const { settings, remove } = throwAwayState('envgap-bench-');
  const server = await startEphemeralDevServer(settings.temporalCli);
  const db = await openDb(settings);
  const { worker, connection } = await createCpuWorker({ address: server.address, namespace: 'default', db, settings });
  const workers = [worker, ...(await more(connection))];
  const running = Promise.all(workers.map((w) => w.run()));
  try {
    await measure({ settings, db, client: new Client({ connection: server.connection }) });
  } finally {
    for (const w of workers) w.shutdown();
    await running;
    await connection.close();
    await db.destroy();
    await server.stop();
    await remove();
  }
}
