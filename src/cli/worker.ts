import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { connectDocker, removeContainerIfExists } from '../infra/docker';
import { ensureRuntimeImage } from '../infra/images';
import { loadSettings } from '../infra/settings';
import { createCpuWorker, createGpuWorker } from '../workers/cpuWorker';
import { checkGpus, type GpuCheckProbes } from '../workers/gpuCheck';
import { QUEUES, type QueueName } from '../workers/queues';
import { openDb, openTemporal } from './context';
import { say } from './say';

const run = promisify(execFile);

/** The real looks of the gpu worker's check: nvidia-smi here, and in a container given every GPU by a device request. */
function gpuProbes(): GpuCheckProbes {
  return {
    host: async () => (await run('nvidia-smi', ['--query-gpu=index,name,driver_version,memory.total', '--format=csv,noheader'], { timeout: 30_000 })).stdout,
    async container() {
      const docker = connectDocker();
      const settings = loadSettings();
      // Any local image will do (the toolkit mounts nvidia-smi in): the python runtime image, built if need be.
      const image = await ensureRuntimeImage(docker, settings, 'python', (line) => say(`[image python] ${line}`));
      const name = `envgap-gpu-check-${process.pid}`;
      await removeContainerIfExists(docker, name);
      const container = await docker.createContainer({
        name,
        Image: image,
        Cmd: ['nvidia-smi', '-L'],
        Env: ['NVIDIA_DRIVER_CAPABILITIES=compute,utility'],
        HostConfig: { DeviceRequests: [{ Driver: 'nvidia', Count: -1, Capabilities: [['gpu']] }] },
      });
      try {
        await container.start();
        const { StatusCode } = (await container.wait()) as { StatusCode: number };
        const logs = (await container.logs({ stdout: true, stderr: true })).toString('utf8');
        if (StatusCode !== 0) throw new Error(`nvidia-smi -L exited ${StatusCode} in the container: ${logs.trim().slice(0, 300)}`);
        return logs;
      } finally {
        await removeContainerIfExists(docker, name);
      }
    },
  };
}

/** A long-running worker; several may run on several machines against one Temporal and one Postgres. */
export async function runWorker(queue: QueueName = 'cpu'): Promise<void> {
  const settings = loadSettings();
  const gpus = queue === 'gpu' ? await checkGpus(gpuProbes()) : [];
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
