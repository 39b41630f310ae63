import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { connectDocker } from '../infra/docker';
import { loadSettings } from '../infra/settings';
import { createCpuWorker, createGpuWorker } from '../workers/cpuWorker';
import { QUEUES, type QueueName } from '../workers/queues';
import { openDb, openTemporal } from './context';
import { say } from './say';

const run = promisify(execFile);

/**
 * The GPUs a gpu worker can give its containers: nvidia-smi on the host, and Docker's NVIDIA runtime.
 * Throws, saying what is missing, where either is not there.
 */
export async function checkGpus(): Promise<string[]> {
  let listed: string;
  try {
    listed = (await run('nvidia-smi', ['--query-gpu=index,name,driver_version,memory.total', '--format=csv,noheader'], { timeout: 30_000 })).stdout;
  } catch (err) {
    throw new Error(`a gpu worker needs NVIDIA GPUs: nvidia-smi did not run (${(err as Error).message.split('\n')[0]}); install the NVIDIA driver, or run a cpu worker`);
  }
  const gpus = listed.trim().split('\n').filter(Boolean);
  if (gpus.length === 0) throw new Error('a gpu worker needs NVIDIA GPUs: nvidia-smi lists none');
  const info = (await connectDocker().info()) as { Runtimes?: Record<string, unknown> };
  if (!info.Runtimes || !('nvidia' in info.Runtimes)) {
    throw new Error(`a gpu worker needs Docker's NVIDIA runtime (nvidia-container-toolkit): docker info lists the runtimes ${Object.keys(info.Runtimes ?? {}).join(', ') || 'none'}`);
  }
  return gpus;
}

/** A long-running worker; several may run on several machines against one Temporal and one Postgres. */
export async function runWorker(queue: QueueName = 'cpu'): Promise<void> {
  const settings = loadSettings();
  const gpus = queue === 'gpu' ? await checkGpus() : [];
  const t = await openTemporal(settings);
  const db = await openDb(settings);
  const o = { address: t.temporal.address, namespace: t.temporal.namespace, db, settings, log: say };
  const { worker, connection, ownQueue } = queue === 'gpu' ? await createGpuWorker(o) : await createCpuWorker(o);
  say(`worker polling ${QUEUES[queue]} and ${ownQueue} on ${t.temporal.address} (pid ${process.pid})`);
  for (const g of gpus) say(`GPU ${g}`);
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
