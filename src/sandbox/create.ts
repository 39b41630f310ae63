import type Docker from 'dockerode';
import type { SandboxLimits, SandboxLimitsInput } from '../domain/sandboxLimits';
import { formatGpuLabel, GPU_LABEL } from './gpuChoice';
import { SANDBOX_LABELS } from './names';
import type { CacheMode, SandboxSpec, StoredSpec } from './spec';

const MIB = 1024 * 1024;

/**
 * The cache binds as mounted: `read-only` with `:ro` from the start; `install-only` writable (sealed
 * before the run), and only where this process can remount them (`canSeal`), else not at all.
 */
export function mountedCaches(binds: readonly string[], mode: CacheMode, canSeal: boolean): { binds: string[]; mode: CacheMode } {
  if (binds.length === 0 || mode === 'none') return { binds: [], mode: 'none' };
  if (mode === 'read-only') return { binds: binds.map((b) => `${b}:ro`), mode };
  return canSeal ? { binds: [...binds], mode } : { binds: [], mode: 'none' };
}

/**
 * Docker's create options for a sandbox: a container that sleeps until told, under an init, with the
 * limits, the network, the caches as mounted and the spec stored in a label for re-attaching.
 */
export function createOptions(spec: SandboxSpec<SandboxLimitsInput>, limits: SandboxLimits, stored: StoredSpec, cacheBinds: string[]): Docker.ContainerCreateOptions {
  const gpus = stored.gpuIds ?? [];
  return {
    name: spec.name,
    Image: spec.image,
    Cmd: ['sleep', 'infinity'],
    WorkingDir: spec.workdir ?? '/work',
    // The driver's compute and utility libraries (nvidia-smi) in any image, not only NVIDIA's own.
    Env: [...(spec.env ?? []), ...(stored.gpus ? ['NVIDIA_DRIVER_CAPABILITIES=compute,utility'] : [])],
    Labels: { ...spec.labels, [SANDBOX_LABELS.spec]: JSON.stringify(stored), ...(stored.gpus ? { [GPU_LABEL]: formatGpuLabel(gpus) } : {}) },
    HostConfig: {
      ...(spec.ptrace ? { CapAdd: ['SYS_PTRACE'] } : {}),
      Memory: limits.memory_mb * MIB,
      MemorySwap: limits.memory_mb * MIB,
      NanoCpus: Math.round(limits.cpus * 1e9),
      PidsLimit: limits.pids,
      ShmSize: limits.shm_mb * MIB,
      Binds: [...(spec.binds ?? []), ...cacheBinds],
      Init: true,
      NetworkMode: stored.network.name,
      // Exactly the GPUs leased to it: the container sees them as 0..n-1.
      ...(stored.gpus ? { DeviceRequests: [{ Driver: 'nvidia', DeviceIDs: gpus.map(String), Capabilities: [['gpu']] }] } : {}),
    },
  };
}

/** The spec a container was opened with, from its label; null where it has none (not a sandbox) or it does not parse. */
export function storedSpecOf(labels: Record<string, string> | undefined): StoredSpec | null {
  const text = labels?.[SANDBOX_LABELS.spec];
  if (!text) return null;
  try {
    const s = JSON.parse(text) as StoredSpec;
    return s && typeof s === 'object' && s.limits && s.caches && s.network ? s : null;
  } catch {
    return null;
  }
}
