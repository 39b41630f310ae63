import type Docker from 'dockerode';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chooseGpus, GPU_LABEL, losesRace, parseGpuLabel, type GpuRequest } from './gpuChoice';
import { SANDBOX_LABELS } from './names';

const run = promisify(execFile);
const WAIT_MS = 2_000;

let inventory: Promise<number[]> | null = null;

/**
 * The worker's GPU indexes: `ENVGAP_GPUS` (`0,1`; what a worker may hand out, where it should not
 * have them all), else what nvidia-smi lists, read once per process.
 */
export function machineGpus(env: NodeJS.ProcessEnv = process.env): Promise<number[]> {
  if (env.ENVGAP_GPUS !== undefined) return Promise.resolve(parseGpuLabel(env.ENVGAP_GPUS));
  inventory ??= run('nvidia-smi', ['--query-gpu=index', '--format=csv,noheader'], { timeout: 30_000 })
    .then((r) => parseGpuLabel(r.stdout.trim().split('\n').join(',')))
    .catch((err: Error) => {
      inventory = null;
      throw new Error(`this worker's GPUs: nvidia-smi did not run (${err.message.split('\n')[0]})`);
    });
  return inventory;
}

interface Holder {
  name: string;
  instanceId: string;
  created: number;
  gpus: number[];
}

async function holders(docker: Docker): Promise<Holder[]> {
  const list = await docker.listContainers({ all: true, filters: { label: [GPU_LABEL] } });
  return list.map((c) => ({ name: (c.Names?.[0] ?? '').replace(/^\//, ''), instanceId: c.Labels?.[SANDBOX_LABELS.instance] ?? '', created: c.Created ?? 0, gpus: parseGpuLabel(c.Labels?.[GPU_LABEL]) }));
}

export interface GpuLeaseRequest {
  name: string;
  instanceId: string;
  request: GpuRequest;
  machine: number[];
  /** Creates the container with exactly these GPUs and their label. */
  create: (gpus: number[]) => Promise<Docker.Container>;
  /** Removes the container `create` made (a race lost). */
  remove: () => Promise<void>;
  signal?: AbortSignal;
  /** Said once while it waits for GPUs another instance holds. */
  onWait?: (line: string) => void;
}

/**
 * A container with GPUs leased to its instance. The leases are the containers' own labels, so Docker
 * keeps them: a worker that restarts sees the GPUs its instances still hold, a removed container (an
 * instance ended or cancelled) frees its GPUs, and several worker processes on one machine agree.
 * Waits (every 2 s, abortable) while another instance holds what it needs; two instances that took
 * the same GPU at the same moment are told apart afterwards, and the later one gives it back.
 */
export async function createWithGpus(docker: Docker, o: GpuLeaseRequest): Promise<{ container: Docker.Container; gpus: number[] }> {
  let said = false;
  for (;;) {
    if (o.signal?.aborted) throw o.signal.reason ?? new Error('aborted while waiting for GPUs');
    const held = (await holders(docker)).filter((h) => h.name !== o.name);
    const gpus = chooseGpus(o.machine, held, o.instanceId, o.request);
    if (gpus) {
      const container = await o.create(gpus);
      const info = await container.inspect();
      const mine = { name: o.name, instanceId: o.instanceId, created: Math.floor(Date.parse(info.Created) / 1000), gpus };
      const others = (await holders(docker)).filter((h) => h.name !== o.name);
      if (o.request.share || !losesRace(mine, others)) return { container, gpus };
      await o.remove();
    }
    if (!said) {
      said = true;
      o.onWait?.(`waiting for GPUs: ${o.request.count === 'all' ? 'all' : o.request.count} of ${o.machine.join(',')} asked, held by ${[...new Set(held.filter((h) => h.instanceId !== o.instanceId).map((h) => h.instanceId))].sort().join(', ')}`);
    }
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, WAIT_MS);
      o.signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
    });
  }
}
