import { loadSettings } from '../infra/settings';
import { createCpuWorker } from '../workers/cpuWorker';
import { QUEUES } from '../workers/queues';
import { openDb, openTemporal } from './context';
import { say } from './say';

/** A long-running worker; several may run on several machines against one Temporal and one Postgres. */
export async function runWorker(): Promise<void> {
  const settings = loadSettings();
  const t = await openTemporal(settings);
  const db = await openDb(settings);
  const { worker, connection } = await createCpuWorker({ address: t.temporal.address, namespace: t.temporal.namespace, db, settings, log: say });
  say(`worker polling ${QUEUES.cpu} on ${t.temporal.address} (pid ${process.pid})`);
  const stop = () => worker.shutdown();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await worker.run();
  } finally {
    await connection.close();
    await t.connection.close();
    await db.destroy();
  }
}
