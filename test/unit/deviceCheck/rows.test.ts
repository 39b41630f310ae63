import { containerGpusRow, exitCodeOf, formatTable, hostGpusRow, probeRow, shmRow } from '../../../src/deviceCheck/rows';
import { deviceCheckLimits, parseDeviceCheckArgs } from '../../../src/deviceCheck/options';
import { allReduceVerdict, kernelVerdict } from '../../../src/readiness/genericVerdict';

const stage = { skip_reason: null, exit_code: 0, duration_s: 4.2, command: 'python ...' };

describe('the device check\'s stages', () => {
  it('nvidia-smi: the GPUs the host\'s driver lists, or why none', () => {
    expect(hostGpusRow('0, NVIDIA H200, 550.54.15, 143771 MiB\n1, NVIDIA H200, 550.54.15, 143771 MiB\n')).toEqual({ row: { stage: 'nvidia-smi', verdict: 'pass', detail: '2 GPUs: NVIDIA H200, driver 550.54.15, 143771 MiB' }, count: 2 });
    expect(hostGpusRow(new Error('spawn nvidia-smi ENOENT\nmore'))).toEqual({ row: { stage: 'nvidia-smi', verdict: 'FAIL', detail: 'did not run: spawn nvidia-smi ENOENT (install the NVIDIA driver)' }, count: 0 });
    expect(hostGpusRow('\n').row.verdict).toBe('FAIL');
  });

  it('container GPUs: as many as the host, seen inside a sandbox with a device request', () => {
    const listing = 'GPU 0: NVIDIA H200 (UUID: GPU-1)\nGPU 1: NVIDIA H200 (UUID: GPU-2)\n';
    expect(containerGpusRow(listing, 2)).toEqual({ stage: 'container GPUs', verdict: 'pass', detail: 'the sandbox sees 2 GPUs, as the host' });
    expect(containerGpusRow('GPU 0: NVIDIA H200 (UUID: GPU-1)\n', 2)).toMatchObject({ verdict: 'FAIL', detail: 'the sandbox sees 1 GPU, the host has 2' });
    expect(containerGpusRow(new Error('could not select device driver "nvidia" with capabilities: [[gpu]]'), 2).detail).toMatch(/^a sandbox with a device request could not run nvidia-smi: could not select device driver/);
    expect(containerGpusRow('', 0).verdict).toBe('FAIL');
  });

  it('/dev/shm: df\'s size against limits.shm_mb', () => {
    expect(shmRow('1K-blocks\n 16777216\n', 16384)).toEqual({ stage: '/dev/shm', verdict: 'pass', detail: '16384 MiB, as limits.shm_mb' });
    expect(shmRow('1K-blocks\n   65536\n', 16384)).toMatchObject({ verdict: 'FAIL', detail: '64 MiB in the sandbox, limits.shm_mb is 16384' });
    expect(shmRow('df: /dev/shm: No such file or directory', 64)).toMatchObject({ verdict: 'FAIL', detail: 'df printed no size: df: /dev/shm: No such file or directory' });
    expect(shmRow(new Error('no such image'), 64).verdict).toBe('FAIL');
  });

  it('a generic probe: passed, failed with its category, or skipped with its reason', () => {
    const json = JSON.stringify({ probe: 'all_reduce', world_size: 2, got: 3, mismatched_elements: 0, ranks_ok: 2, timings_s: { all_reduce: 0.05 }, error: null });
    const ok = allReduceVerdict({ output: json, exitCode: 0, timedOut: false }, { backend: 'gloo', worldSize: 2 });
    expect(probeRow('C4 generic', { ...stage, status: 'success', failure_category: null, error_excerpt: null, verdict: ok })).toEqual({ stage: 'C4 generic', verdict: 'pass', detail: 'all-reduce over 2 ranks (gloo): sum 3 = 3 on every rank, 0.050 s' });
    const none = kernelVerdict({ output: '', exitCode: 1, timedOut: false }, 'cuda');
    expect(probeRow('C3 generic', { ...stage, status: 'failure', failure_category: 'runtime', error_excerpt: 'crashed', verdict: none })).toMatchObject({ verdict: 'FAIL', detail: 'runtime: the kernel check on cuda: crashed before its verdict' });
    expect(probeRow('C4 generic', { ...stage, status: 'skipped', skip_reason: 'insufficient_hardware', failure_category: null, error_excerpt: '1 GPU visible: an all-reduce needs 2', exit_code: null, verdict: null })).toEqual({ stage: 'C4 generic', verdict: 'skipped', detail: 'insufficient_hardware: 1 GPU visible: an all-reduce needs 2' });
  });

  it('the table aligns its columns; any FAIL makes the exit non-zero, a skip does not', () => {
    const rows = [
      { stage: 'nvidia-smi', verdict: 'skipped' as const, detail: 'no GPU (--cpu)' },
      { stage: '/dev/shm', verdict: 'pass' as const, detail: '64 MiB, as limits.shm_mb' },
    ];
    expect(formatTable(rows)).toBe('stage       verdict  detail\nnvidia-smi  skipped  no GPU (--cpu)\n/dev/shm    pass     64 MiB, as limits.shm_mb\n');
    expect(exitCodeOf(rows)).toBe(0);
    expect(exitCodeOf([...rows, { stage: 'C3 generic', verdict: 'FAIL', detail: 'x' }])).toBe(1);
  });
});

describe('the device check\'s options', () => {
  it('defaults, and each flag', () => {
    expect(parseDeviceCheckArgs([])).toEqual({ cpu: false, shmMb: null, torch: 'torch==2.5.1', timeoutS: 900 });
    expect(parseDeviceCheckArgs(['--cpu', '--shm-mb', '64', '--torch', 'torch==2.4.1', '--timeout-s', '300'])).toEqual({ cpu: true, shmMb: 64, torch: 'torch==2.4.1', timeoutS: 300 });
    expect(() => parseDeviceCheckArgs(['--shm-mb', 'lots'])).toThrow(/--shm-mb takes a positive whole number, not lots/);
    expect(() => parseDeviceCheckArgs(['--gpu'])).toThrow(/unknown argument --gpu\nusage: scripts\/gpu-check.sh/);
  });

  it('the probes\' limits: the protocol\'s, on up to 8 CPUs and 32 GiB, /dev/shm within memory unless asked', () => {
    expect(deviceCheckLimits({ cpus: 192, memoryMb: 2_000_000 }, null)).toMatchObject({ cpus: 8, memory_mb: 32768, shm_mb: 16384 });
    expect(deviceCheckLimits({ cpus: 2, memoryMb: 8192 }, null)).toMatchObject({ cpus: 2, memory_mb: 6144, shm_mb: 6144 });
    expect(deviceCheckLimits({ cpus: 2, memoryMb: 8192 }, 64).shm_mb).toBe(64);
  });
});
