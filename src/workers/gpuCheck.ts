/** What a GPU worker's start-up check looks at: the host's nvidia-smi, and a container given GPUs by a device request. */
export interface GpuCheckProbes {
  /** nvidia-smi's `index, name, driver_version, memory.total` CSV on the host. */
  host(): Promise<string>;
  /** `nvidia-smi -L` inside a container created with a device request for every GPU. */
  container(): Promise<string>;
}

/** A failed check, saying which of the two looks failed. */
export class GpuCheckError extends Error {
  constructor(
    readonly failed: 'host' | 'container',
    message: string,
  ) {
    super(message);
    this.name = 'GpuCheckError';
  }
}

const firstLine = (err: unknown) => (err as Error).message.split('\n')[0];

/**
 * The GPUs a gpu worker can give its containers: the host's driver must list them (nvidia-smi), and a
 * container created with a Docker device request (what `--gpus` does; no registered `nvidia` runtime is
 * needed) must see as many. Each failure says which look failed and what to install.
 */
export async function checkGpus(p: GpuCheckProbes): Promise<string[]> {
  let listed: string;
  try {
    listed = await p.host();
  } catch (err) {
    throw new GpuCheckError('host', `a gpu worker needs NVIDIA GPUs: nvidia-smi on this machine did not run (${firstLine(err)}); install the NVIDIA driver, or run a cpu worker`);
  }
  const gpus = listed.trim().split('\n').map((l) => l.trim()).filter(Boolean);
  if (gpus.length === 0) throw new GpuCheckError('host', 'a gpu worker needs NVIDIA GPUs: nvidia-smi on this machine lists none');
  let seen: string;
  try {
    seen = await p.container();
  } catch (err) {
    throw new GpuCheckError('container', `nvidia-smi lists ${gpus.length} GPU(s), but a container with a device request for them could not start or run nvidia-smi (${firstLine(err)}); install the NVIDIA Container Toolkit (nvidia-ctk) and restart Docker`);
  }
  const inside = seen.split('\n').filter((l) => /^GPU \d+:/.test(l.trim())).length;
  if (inside !== gpus.length) throw new GpuCheckError('container', `nvidia-smi lists ${gpus.length} GPU(s) on this machine, but a container with a device request for all of them sees ${inside}: check the NVIDIA Container Toolkit's configuration`);
  return gpus;
}
