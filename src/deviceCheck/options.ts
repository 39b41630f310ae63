import { PROTOCOL_LIMIT_DEFAULTS, type SandboxLimits } from '../domain/sandboxLimits';

/** scripts/gpu-check.sh's arguments. */
export interface DeviceCheckOptions {
  /** No GPU: the GPU stages are skipped, C3 runs on the CPU and C4 over gloo. */
  cpu: boolean;
  /** /dev/shm of the probes' sandboxes; null: the readiness protocol's default, within memory. */
  shmMb: number | null;
  /** The pip requirement the environment's torch is installed from. */
  torch: string;
  /** Each probe's time limit. */
  timeoutS: number;
}

export const DEVICE_CHECK_USAGE = 'usage: scripts/gpu-check.sh [--cpu] [--shm-mb N] [--torch REQUIREMENT] [--timeout-s N]';

export function parseDeviceCheckArgs(argv: readonly string[]): DeviceCheckOptions {
  const o: DeviceCheckOptions = { cpu: false, shmMb: null, torch: 'torch==2.5.1', timeoutS: 900 };
  const positive = (flag: string, value: string | undefined) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${flag} takes a positive whole number, not ${value ?? 'nothing'}\n${DEVICE_CHECK_USAGE}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--cpu') o.cpu = true;
    else if (arg === '--shm-mb') o.shmMb = positive(arg, argv[++i]);
    else if (arg === '--timeout-s') o.timeoutS = positive(arg, argv[++i]);
    else if (arg === '--torch' && argv[i + 1]) o.torch = argv[++i]!;
    else throw new Error(`unknown argument ${arg}\n${DEVICE_CHECK_USAGE}`);
  }
  return o;
}

/**
 * The probes' limits: the readiness protocol's defaults, on up to 8 CPUs and 32 GiB of this machine
 * (studies/gpu-check.yaml's), /dev/shm as asked or the protocol's default within that memory.
 */
export function deviceCheckLimits(machine: { cpus: number; memoryMb: number }, shmMb: number | null): SandboxLimits {
  const defaults = PROTOCOL_LIMIT_DEFAULTS.readiness;
  const memory = Math.min(32768, Math.floor(machine.memoryMb * 0.75));
  return { ...defaults, cpus: Math.min(8, machine.cpus), memory_mb: memory, shm_mb: shmMb ?? Math.min(defaults.shm_mb, memory) };
}
