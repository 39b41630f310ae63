import { shellQuote } from '../text/shellQuote';
import { ALL_REDUCE_SCRIPT, KERNEL_CHECK_SCRIPT } from './probeScripts';

/** Where a generic probe's scripts are put in its container. */
export const GENERIC_DIR = '/tmp/envgap-generic';
export const GENERIC_FILES = { 'kernel_check.py': KERNEL_CHECK_SCRIPT, 'all_reduce.py': ALL_REDUCE_SCRIPT };

/** C3 generic: the kernel check on the first GPU, or on the CPU where the probe has no GPU. */
export function kernelCheckCommand(python: string, device: 'cuda' | 'cpu'): string {
  return `${shellQuote(python)} ${GENERIC_DIR}/kernel_check.py --device ${device}`;
}

/**
 * C4 generic: torchrun as the agent's interpreter has it (`python -m torch.distributed.run`, so no
 * `torchrun` on PATH is needed), one process per rank on this machine. The ranks' collective timeout
 * is under the stage's, so that rank 0 says a collective hung before the stage is killed.
 */
export function allReduceCommand(python: string, o: { nproc: number; backend: 'nccl' | 'gloo'; stageTimeoutS: number }): string {
  const collectiveTimeoutS = o.stageTimeoutS > 60 ? o.stageTimeoutS - 30 : Math.max(1, Math.floor(o.stageTimeoutS * 0.8));
  return `${shellQuote(python)} -m torch.distributed.run --standalone --nnodes 1 --nproc_per_node ${o.nproc} ${GENERIC_DIR}/all_reduce.py --backend ${o.backend} --timeout-s ${collectiveTimeoutS}`;
}

/**
 * The environment of the C4 probe: NCCL says why it fails (its warnings name /dev/shm, the transport,
 * the driver); one thread per rank, as torchrun would set with a warning.
 */
export const ALL_REDUCE_ENV = ['NCCL_DEBUG=WARN', 'OMP_NUM_THREADS=1'];
