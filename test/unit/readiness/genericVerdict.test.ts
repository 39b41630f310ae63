import { allReduceVerdict, describeVerdict, judgeGeneric, kernelVerdict } from '../../../src/readiness/genericVerdict';
import { allReduceCommand, kernelCheckCommand } from '../../../src/readiness/genericCommands';
import { GenericVerdict, GpuStageResult } from '../../../src/domain/readiness';

// Outputs as the scripts and torchrun print them (probeScripts.ts): warnings before, the verdict last.
const kernelJson = (over: Record<string, unknown> = {}) =>
  JSON.stringify({ probe: 'kernel', framework: 'torch', framework_version: '2.5.1+cu124', device: 'cuda', device_available: true, device_name: 'NVIDIA H200', size: 1024, max_abs_error: 0.00012, scale: 170.3, tolerance: 0.01, timings_s: { alloc: 0.2, to_device: 0.01, matmul: 0.31, to_host: 0.002, cpu_matmul: 0.02 }, shm_bytes: 67108864, error: null, errors: {}, ...over });
const reduceJson = (over: Record<string, unknown> = {}) =>
  JSON.stringify({ probe: 'all_reduce', backend: 'nccl', world_size: 2, expected: 3, got: 3, mismatched_elements: 0, ranks_ok: 2, framework_version: '2.5.1+cu124', nccl_version: '2.21.5', device_name: 'NVIDIA H200', shm_bytes: 17179869184, timings_s: { init: 0.8, all_reduce: 0.4 }, error: null, ...over });
const TORCHRUN_WARNING = 'W1025 12:00:00.000000 140 torch/distributed/run.py:793] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default\n';
const DESTROY_WARNING = '[rank0]:[W1025 12:00:01.000000 ProcessGroupNCCL.cpp:1250] Warning: WARNING: process group has NOT been destroyed before we destruct ProcessGroupNCCL.\n';
const run = (output: string, exitCode: number | null = 0, timedOut = false) => ({ output, exitCode, timedOut });
const probeRun = (output: string, exitCode: number | null = 0, timedOut = false) => ({ output, exitCode, timedOut, oomKilled: false });

describe('the kernel check (C3 generic)', () => {
  it('ok: the device matmul within the tolerance of the CPU one', () => {
    const v = kernelVerdict(run(`some warning\n${kernelJson()}\n`), 'cuda');
    expect(v).toMatchObject({ probe: 'kernel', ok: true, problem: null, framework: 'torch', device_name: 'NVIDIA H200', max_abs_error: 0.00012, scale: 170.3, tolerance: 0.01, error: null });
    expect(v.timings_s).toEqual({ alloc: 0.2, to_device: 0.01, matmul: 0.31, to_host: 0.002, cpu_matmul: 0.02 });
    expect(describeVerdict(v)).toBe('torch 2.5.1+cu124 on NVIDIA H200, matmul 1024x1024 0.310 s, max abs error 0.00012 <= 0.01 x 170.3');
  });

  it('the tolerance is relative to the result above 1, absolute under it', () => {
    expect(kernelVerdict(run(kernelJson({ max_abs_error: 1.7, scale: 170.3 })), 'cuda')).toMatchObject({ ok: true });
    expect(kernelVerdict(run(kernelJson({ max_abs_error: 1.71, scale: 170.3 })), 'cuda')).toMatchObject({ ok: false, problem: 'mismatch' });
    expect(kernelVerdict(run(kernelJson({ max_abs_error: 0.011, scale: 0.5 })), 'cuda')).toMatchObject({ ok: false, problem: 'mismatch' });
  });

  it('judges the numbers itself: a script that claims ok with a wrong result is a mismatch', () => {
    const v = kernelVerdict(run(kernelJson({ ok: true, max_abs_error: 40 })), 'cuda');
    expect(v).toMatchObject({ ok: false, problem: 'mismatch' });
    expect(describeVerdict(v)).toMatch(/differs from the CPU's, max abs error 40 > 0.01 x 170.3/);
  });

  it('a non-finite result (printed as null) with its error', () => {
    expect(kernelVerdict(run(kernelJson({ max_abs_error: null, error: "the device's result is not finite" }), 1), 'cuda')).toMatchObject({ ok: false, problem: 'error', max_abs_error: null });
  });

  it('the framework sees no GPU', () => {
    const v = kernelVerdict(run(kernelJson({ device_available: false, device_name: null, max_abs_error: null, scale: null, timings_s: {} }), 1), 'cuda');
    expect(v).toMatchObject({ ok: false, problem: 'no_device' });
    expect(describeVerdict(v)).toBe('torch 2.5.1+cu124 on cuda: torch sees no GPU');
  });

  it('no framework imports: the import errors are the error', () => {
    const v = kernelVerdict(run(kernelJson({ framework: null, framework_version: null, device_available: null, max_abs_error: null, errors: { torch: "ModuleNotFoundError: No module named 'torch'", jax: "ModuleNotFoundError: No module named 'jax'" } }), 1), 'cuda');
    expect(v).toMatchObject({ ok: false, problem: 'no_framework', framework: null, error: "torch: ModuleNotFoundError: No module named 'torch'; jax: ModuleNotFoundError: No module named 'jax'" });
  });

  it('tensorflow and jax where torch is absent', () => {
    expect(kernelVerdict(run(kernelJson({ framework: 'jax', framework_version: '0.4.30', device_name: 'H200' })), 'cuda')).toMatchObject({ ok: true, framework: 'jax' });
    expect(kernelVerdict(run(kernelJson({ framework: 'mxnet' })), 'cuda')).toMatchObject({ ok: false, problem: 'no_framework', framework: null });
  });

  it('crashed: no verdict line (a segfault, a missing interpreter)', () => {
    const v = kernelVerdict(run('bash: /opt/venv/bin/python: No such file or directory\n', 127), 'cuda');
    expect(v).toMatchObject({ ok: false, problem: 'crashed', framework: null, max_abs_error: null, timings_s: {} });
    expect(kernelVerdict(run(`${kernelJson().slice(0, 40)}\nSegmentation fault (core dumped)\n`, 139), 'cuda')).toMatchObject({ problem: 'crashed' });
  });

  it('timeout: killed before its verdict, or a framework that says it timed out', () => {
    expect(kernelVerdict(run('loading...\n', null, true), 'cuda')).toMatchObject({ ok: false, problem: 'timeout' });
    expect(kernelVerdict(run(kernelJson({ error: 'RuntimeError: CUDA error: the launch timed out after 300 s and was terminated', max_abs_error: null }), 1), 'cuda')).toMatchObject({ problem: 'timeout' });
  });

  it('the cpu mode reports the device it was asked', () => {
    expect(kernelVerdict(run(kernelJson({ device: 'cpu', device_name: 'x86_64', max_abs_error: 0, scale: 160 })), 'cpu')).toMatchObject({ ok: true, device: 'cpu', device_name: 'x86_64' });
  });
});

describe('the all-reduce (C4 generic)', () => {
  it('ok: every rank summed 1 + 2, whatever torch printed after the verdict', () => {
    const v = allReduceVerdict(run(`${TORCHRUN_WARNING}${reduceJson()}\n${DESTROY_WARNING}`), { backend: 'nccl', worldSize: 2 });
    expect(v).toMatchObject({ probe: 'all_reduce', ok: true, problem: null, backend: 'nccl', world_size: 2, seen_world_size: 2, expected: 3, got: 3, ranks_ok: 2, nccl_version: '2.21.5', shm_bytes: 17179869184, hint: null });
    expect(describeVerdict(v)).toBe('all-reduce over 2 ranks (nccl 2.21.5, NVIDIA H200): sum 3 = 3 on every rank, 0.400 s');
  });

  it('the expected sum is the asked world size\'s, not the script\'s', () => {
    const v = allReduceVerdict(run(reduceJson({ world_size: 4, expected: 10, got: 10, ranks_ok: 4 })), { backend: 'nccl', worldSize: 8 });
    expect(v).toMatchObject({ ok: false, problem: 'wrong_world_size', expected: 36, seen_world_size: 4 });
  });

  it('wrong sum: on rank 0, in some elements, or on another rank', () => {
    expect(allReduceVerdict(run(reduceJson({ got: 2, mismatched_elements: 1048576, ranks_ok: 0 }), 1), { backend: 'nccl', worldSize: 2 })).toMatchObject({ ok: false, problem: 'wrong_sum', got: 2 });
    expect(allReduceVerdict(run(reduceJson({ mismatched_elements: 17, ranks_ok: 1 }), 1), { backend: 'nccl', worldSize: 2 })).toMatchObject({ problem: 'wrong_sum' });
    const v = allReduceVerdict(run(reduceJson({ ranks_ok: 1 }), 1), { backend: 'nccl', worldSize: 2 });
    expect(v).toMatchObject({ problem: 'wrong_sum' });
    expect(describeVerdict(v)).toBe('all-reduce over 2 ranks (nccl 2.21.5, NVIDIA H200): expected 3, got 3 (0 elements wrong on rank 0, 1 of 2 ranks right)');
  });

  it('crashed: torchrun\'s failure and no verdict; /dev/shm named, the hint says so', () => {
    const output = `${TORCHRUN_WARNING}node:1:2 [1] NCCL WARN Error while creating shared memory segment /dev/shm/nccl-abc (size 9637888)\ntorch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n/tmp/envgap-generic/all_reduce.py FAILED\n`;
    const v = allReduceVerdict(run(output, 1), { backend: 'nccl', worldSize: 2 });
    expect(v).toMatchObject({ ok: false, problem: 'crashed', got: null, shm_bytes: null, hint: "NCCL may lack /dev/shm (its size unknown): raise the study's limits.shm_mb" });
    expect(describeVerdict(v)).toBe("all-reduce over 2 ranks (nccl): crashed before rank 0's verdict; NCCL may lack /dev/shm (its size unknown): raise the study's limits.shm_mb");
    expect(allReduceVerdict(run(output, 1), { backend: 'gloo', worldSize: 2 }).hint).toBeNull();
  });

  it('an error rank 0 caught, with the shm it had', () => {
    const v = allReduceVerdict(run(reduceJson({ got: null, mismatched_elements: null, ranks_ok: null, shm_bytes: 67108864, error: 'DistBackendError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5\nError while creating shared memory segment' }), 1), { backend: 'nccl', worldSize: 2 });
    expect(v).toMatchObject({ ok: false, problem: 'error', hint: "NCCL may lack /dev/shm (64 MiB here): raise the study's limits.shm_mb" });
  });

  it('no torch in the interpreter: no_framework from rank 0, crashed where torchrun itself is missing', () => {
    expect(allReduceVerdict(run(reduceJson({ got: null, error: "ModuleNotFoundError: No module named 'torch'" }), 1), { backend: 'gloo', worldSize: 2 })).toMatchObject({ problem: 'no_framework' });
    expect(allReduceVerdict(run('/usr/bin/python3: Error while finding module specification for \'torch.distributed.run\' (ModuleNotFoundError: No module named \'torch\')\n', 1), { backend: 'gloo', worldSize: 2 })).toMatchObject({ problem: 'crashed' });
  });

  it('timeout text: the NCCL watchdog, the store, or the stage killed', () => {
    const watchdog = `[rank1]:[E1025 12:10:00 ProcessGroupNCCL.cpp:607] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1048576, Timeout(ms)=570000) ran for 570001 milliseconds before timing out.\n`;
    expect(allReduceVerdict(run(watchdog, 1), { backend: 'nccl', worldSize: 2 })).toMatchObject({ ok: false, problem: 'timeout' });
    expect(allReduceVerdict(run(reduceJson({ got: null, error: 'DistStoreError: Timed out after 571 seconds waiting for clients. 1/2 clients joined.' }), 1), { backend: 'nccl', worldSize: 2 })).toMatchObject({ problem: 'timeout' });
    expect(allReduceVerdict(run(TORCHRUN_WARNING, null, true), { backend: 'gloo', worldSize: 2 })).toMatchObject({ problem: 'timeout' });
  });

  it('a line that only looks like JSON, or another probe\'s JSON, is not the verdict', () => {
    expect(allReduceVerdict(run(`{not json\n${kernelJson()}\n`, 1), { backend: 'gloo', worldSize: 2 })).toMatchObject({ problem: 'crashed' });
    expect(allReduceVerdict(run(`${reduceJson({ backend: 'gloo' })}\n{"probe": "all_reduce", "broken"\n`), { backend: 'gloo', worldSize: 2 })).toMatchObject({ ok: true });
  });
});

describe('the stage a generic probe decides', () => {
  it('success only with an ok verdict and exit 0', () => {
    const ok = kernelVerdict(run(kernelJson()), 'cuda');
    expect(judgeGeneric(probeRun(kernelJson()), ok)).toEqual({ status: 'success', failure_category: null, error_excerpt: null });
    // The verdict printed, then the process died in teardown.
    expect(judgeGeneric(probeRun(`${kernelJson()}\nSegmentation fault (core dumped)`, 139), ok)).toMatchObject({ status: 'failure', failure_category: 'runtime' });
  });

  it('the category the problem means; the excerpt says what the probe saw, then the end of the output', () => {
    const output = `${'x'.repeat(3000)}\n${reduceJson({ got: 2, ranks_ok: 0, mismatched_elements: 5 })}\n`;
    const r = judgeGeneric(probeRun(output, 1), allReduceVerdict(run(output, 1), { backend: 'nccl', worldSize: 2 }));
    expect(r.status).toBe('failure');
    expect(r.failure_category).toBe('runtime');
    expect(r.error_excerpt!.split('\n')[0]).toBe('all-reduce over 2 ranks (nccl 2.21.5, NVIDIA H200): expected 3, got 2 (5 elements wrong on rank 0, 0 of 2 ranks right)');
    expect(r.error_excerpt).toContain('"probe":"all_reduce"');
    expect(r.error_excerpt!.length).toBeLessThan(2200);
  });

  it('no framework is deps, a timeout is timeout, a crash is read from the output', () => {
    const none = kernelVerdict(run(kernelJson({ framework: null, max_abs_error: null }), 1), 'cuda');
    expect(judgeGeneric(probeRun('', 1), none).failure_category).toBe('deps');
    expect(judgeGeneric(probeRun('', null, true), kernelVerdict(run('', null, true), 'cuda')).failure_category).toBe('timeout');
    const missing = "/usr/bin/python3: Error while finding module specification for 'torch.distributed.run' (ModuleNotFoundError: No module named 'torch')";
    expect(judgeGeneric(probeRun(missing, 1), allReduceVerdict(run(missing, 1), { backend: 'gloo', worldSize: 2 })).failure_category).toBe('deps');
    expect(judgeGeneric({ ...probeRun('Killed', 137), oomKilled: true }, kernelVerdict(run('Killed', 137), 'cuda')).failure_category).toBe('oom');
  });
});

describe('the record', () => {
  it('a verdict is what the record\'s schema takes, in a C3 or C4 stage with who decided it', () => {
    const verdicts = [kernelVerdict(run(kernelJson()), 'cuda'), kernelVerdict(run('', 1), 'cpu'), allReduceVerdict(run(reduceJson()), { backend: 'nccl', worldSize: 2 }), allReduceVerdict(run('', null, true), { backend: 'gloo', worldSize: 2 })];
    for (const v of verdicts) expect(GenericVerdict.parse(v)).toEqual(v);
    const stage = { status: 'success', skip_reason: null, failure_category: null, exit_code: 0, error_excerpt: null, duration_s: 3.2, command: 'python -m torch.distributed.run ...', decided_by: 'both', generic: verdicts[2] };
    expect(GpuStageResult.parse(stage)).toEqual(stage);
    expect(() => GpuStageResult.parse({ ...stage, decided_by: 'agent' })).toThrow();
  });
});

describe('the commands', () => {
  it('the kernel check with the report\'s interpreter, quoted', () => {
    expect(kernelCheckCommand('/opt/my env/bin/python', 'cpu')).toBe("'/opt/my env/bin/python' /tmp/envgap-generic/kernel_check.py --device cpu");
  });

  it('torchrun through the interpreter, the collective timeout under the stage\'s', () => {
    expect(allReduceCommand('/opt/venv/bin/python', { nproc: 8, backend: 'nccl', stageTimeoutS: 600 })).toBe(
      "'/opt/venv/bin/python' -m torch.distributed.run --standalone --nnodes 1 --nproc_per_node 8 /tmp/envgap-generic/all_reduce.py --backend nccl --timeout-s 570",
    );
    expect(allReduceCommand('python3', { nproc: 2, backend: 'gloo', stageTimeoutS: 30 })).toMatch(/--backend gloo --timeout-s 24$/);
  });
});
