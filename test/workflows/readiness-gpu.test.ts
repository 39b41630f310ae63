import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ReadinessRecord } from '../../src/domain/readiness';
import type { ReadinessInstanceInput } from '../../src/domain/readinessStudy';
import { PROTOCOL_LIMIT_DEFAULTS } from '../../src/domain/sandboxLimits';
import type { readinessInstanceWorkflow } from '../../src/workflows/readiness';
import { QUEUES } from '../../src/workers/queues';
import { startTestWorkflowWorker, startWorkflowEnvironment, type TestWorker } from '../helpers/workflowEnv';

// The readiness workflow's GPU branch over fake activities: which worker takes an instance, what each
// GPU stage is given, when a stage is skipped and why, and C5's audit against what C2 saw.
let env: TestWorkflowEnvironment;
const workers: TestWorker[] = [];
const calls: { queue: string; name: string; input: Record<string, unknown> }[] = [];
const records = new Map<string, ReadinessRecord>();
/** The machine a test pretends to have: GPUs the probes see, and what the agent's report claims. */
let machine = { gpus: 2 };
let report: Record<string, unknown> = {};
/** Whether the generic probes and the prepare stage succeed. */
let outcome = { generic: true, prepare: true };

const stage = (command: string | null) => ({ status: 'success' as const, skip_reason: null, failure_category: null, exit_code: 0, error_excerpt: null, duration_s: 1, command });
const failed = (command: string, excerpt: string) => ({ status: 'failure' as const, skip_reason: null, failure_category: 'runtime' as const, exit_code: 1, error_excerpt: excerpt, duration_s: 1, command });
const kernel = (ok: boolean) => ({ probe: 'kernel', ok, problem: ok ? null : 'mismatch', framework: 'torch', framework_version: '2.5.1', device: 'cuda', device_name: 'NVIDIA H200', max_abs_error: ok ? 0.0001 : 40, scale: 170, tolerance: 0.01, timings_s: {}, error: null });
const allReduce = (ok: boolean) => ({ probe: 'all_reduce', ok, problem: ok ? null : 'wrong_sum', backend: 'nccl', world_size: 2, expected: 3, got: ok ? 3 : 5, ranks_ok: 2, framework_version: '2.5.1', nccl_version: '2.21.5', device_name: 'NVIDIA H200', timings_s: {}, error: null });

function fakes(queue: string) {
  const note = (name: string, input: Record<string, unknown>) => calls.push({ queue, name, input });
  return {
    claimWorker: (input: Record<string, unknown>) => (note('claimWorker', input ?? {}), queue),
    openRepoContainer: (input: Record<string, unknown>) => (note('openRepoContainer', input), { container: `c-${queue}`, trackedHash: 't' }),
    loadReplaySession: () => ({ stepsHash: 's', count: 1, reportHash: 'r' }),
    runSessionStep: () => ({ index: 0, kind: 'command', command: 'pip install torch', exitCode: 0, timedOut: false, durationMs: 1000, outputHash: 'o', excerpt: 'ok', attempt: 1, limit: null }),
    closeSession: () => ({ frozenImage: 'envgap/frozen:x', report: JSON.stringify({ python_path: '/usr/bin/python3', python_version: '3.11.2', env_tool: 'pip', env_name: null, notes: '', torch_version: '2.5.1', ...report }), violations: [] }),
    removeSessionContainer: () => undefined,
    removeFrozenImage: () => undefined,
    probeImports: () => ({ ...stage('pyright'), total: 3, missing: [], missing_source: [] }),
    probeEntry: (input: { stage: string; command: string }) => (note(`probeEntry:${input.stage}`, input), { ...stage(input.command), outputHash: 'out' }),
    probeFacts: (input: Record<string, unknown>) => (
      note('probeFacts', input),
      {
        facts: { executable: true, runs: true, python_version: '3.11.2', torch_version: '2.5.1', torch_error: null, cuda_available: machine.gpus > 0, device_count: machine.gpus },
        envSizeBytes: 1,
        gpu: machine.gpus > 0 ? { name: 'NVIDIA H200', driver_version: '570.86.15', count: machine.gpus } : null,
      }
    ),
    probeGeneric: (input: { stage: 'c3' | 'c4' }) => {
      note(`probeGeneric:${input.stage}`, input);
      const command = input.stage === 'c3' ? 'python3 kernel_check.py cuda' : 'torchrun all_reduce.py';
      const verdict = input.stage === 'c3' ? kernel(outcome.generic) : allReduce(outcome.generic);
      return { ...(outcome.generic ? stage(command) : failed(command, 'the matmul differs from the CPU')), outputHash: 'g', verdict };
    },
    prepareAssets: (input: { command: string; frozenImage: string }) => {
      note('prepareAssets', input);
      const result = outcome.prepare ? stage(input.command) : failed(input.command, 'curl: (6) Could not resolve host');
      return { ...result, outputHash: 'p', preparedImage: outcome.prepare ? `${input.frozenImage}-prepared` : null };
    },
    probeCuda: (input: Record<string, unknown>) => (
      note('probeCuda', input),
      { ...stage('cuda-check'), observed: { framework: 'torch', framework_version: '2.5.1', cuda_available: machine.gpus > 0, device_count: machine.gpus, cuda_version: '12.4' } }
    ),
    probeSetupPrecision: (input: Record<string, unknown>) => (note('probeSetupPrecision', input), { python: '/usr/bin/python3', base_image: 'envgap/readiness:x', kinds: null, installed: 0, installed_used: 0, precision: null, traced: [] }),
    recordReadiness: (input: { instanceId: string; record: ReadinessRecord }) => void records.set(input.instanceId, input.record),
  };
}

beforeAll(async () => {
  env = await startWorkflowEnvironment();
  // A cpu worker and a gpu worker (this server is the file's own).
  workers.push(await startTestWorkflowWorker(env, QUEUES.cpu, fakes(QUEUES.cpu)));
  workers.push(await startTestWorkflowWorker(env, QUEUES.gpu, fakes(QUEUES.gpu)));
}, 120_000);
afterAll(async () => {
  for (const w of workers) await w.stop();
  await env?.teardown();
});

const input = (id: string, gpu: ReadinessInstanceInput['gpu'], supports: ReadinessInstanceInput['repo']['supports'] = ['cpu', 'single_gpu', 'multi_gpu']): ReadinessInstanceInput => ({
  instanceId: id,
  study: 'gpu',
  agent: { kind: 'replay', name: 'rec', path: '/sessions' },
  repo: { id: 'r', source: { kind: 'folder', path: '/r' }, supports, entry: { cpu: 'python train.py --cpu', single_gpu: 'python train.py', multi_gpu: 'torchrun --nproc_per_node 2 train.py' }, stageTimeoutS: 300 },
  trial: 1,
  budget: { wallS: 600, steps: 10, tokens: null },
  gpu,
  memoryMb: 8192,
  cpus: 2,
  limits: { ...PROTOCOL_LIMIT_DEFAULTS.readiness, shm_mb: 8192 },
});

async function run(i: ReadinessInstanceInput): Promise<{ record: ReadinessRecord; seen: typeof calls }> {
  calls.length = 0;
  await env.client.workflow.execute<typeof readinessInstanceWorkflow>('readinessInstanceWorkflow', { workflowId: i.instanceId, taskQueue: QUEUES.cpu, args: [i] });
  return { record: records.get(i.instanceId)!, seen: [...calls] };
}
const named = (seen: typeof calls, name: string) => seen.filter((c) => c.name === name);

test('on a GPU worker: the session and every GPU stage there, with GPUs; C5 agrees with what C2 saw', async () => {
  machine = { gpus: 2 };
  report = { cuda_available: true, gpu_count: 2, ddp_expected_ok: true };
  const { record, seen } = await run(input('gpu/rec/r/1', { run: true }));
  // The gpu queue's worker claims the instance; everything after runs on it.
  expect(named(seen, 'claimWorker').map((c) => c.queue)).toEqual([QUEUES.gpu]);
  expect(seen.filter((c) => c.name !== 'claimWorker').every((c) => c.queue === QUEUES.gpu)).toBe(true);
  // The session container is told the instance runs on GPUs (it gets them, as upstream's agent does).
  expect(named(seen, 'openRepoContainer')[0]!.input).toMatchObject({ gpu: { run: true } });
  expect(named(seen, 'probeEntry:c1')[0]!.input).toMatchObject({ gpus: false });
  expect(named(seen, 'probeEntry:c3')[0]!.input).toMatchObject({ gpus: true, command: 'python train.py' });
  expect(named(seen, 'probeEntry:c4')[0]!.input).toMatchObject({ gpus: true });
  // Beside the repository's commands, the generic probes: both decide C3 and C4.
  expect(named(seen, 'probeGeneric:c3')[0]!.input).toMatchObject({ gpus: true, python: '/usr/bin/python3', frozenImage: 'envgap/frozen:x' });
  expect(named(seen, 'probeGeneric:c4')[0]!.input).toMatchObject({ gpus: true });
  expect(record.stages).toMatchObject({ c2: { status: 'success', observed: { device_count: 2 } }, c3: { status: 'success', decided_by: 'both' }, c4: { status: 'success', decided_by: 'both', generic: { probe: 'all_reduce', ok: true } }, c5: { status: 'success', capability: 0 } });
  expect(record.prepare).toBeUndefined();
  expect(record.gpu).toEqual({ name: 'NVIDIA H200', driver_version: '570.86.15', count: 2 });
});

test('one GPU: C4 is insufficient_hardware, and a report that expected DDP to work is a capability finding', async () => {
  machine = { gpus: 1 };
  report = { cuda_available: true, gpu_count: 1, ddp_expected_ok: true };
  const { record, seen } = await run(input('gpu/rec/r/2', { run: true }));
  expect(named(seen, 'probeEntry:c4')).toEqual([]);
  expect(named(seen, 'probeGeneric:c4')).toEqual([]);
  expect(record.stages.c3).toMatchObject({ status: 'success' });
  expect(record.stages.c4).toMatchObject({ status: 'skipped', skip_reason: 'insufficient_hardware' });
  expect(record.stages.c5).toMatchObject({ status: 'failure', capability: 1 });
  expect(JSON.stringify(record.stages.c5)).toContain('ddp_expected_ok');
});

test('no GPU worker: a cpu worker takes it, the GPU stages are skipped as such, C2 is never run', async () => {
  machine = { gpus: 0 };
  report = { cuda_available: false, gpu_count: 0 };
  const { record, seen } = await run(input('gpu/rec/r/3', { run: false, skipReason: 'no_gpu_worker' }));
  expect(named(seen, 'claimWorker').map((c) => c.queue)).toEqual([QUEUES.cpu]);
  expect(named(seen, 'openRepoContainer')[0]!.input).toMatchObject({ gpu: { run: false } });
  expect(named(seen, 'probeCuda')).toEqual([]);
  expect(seen.filter((c) => c.name.startsWith('probeGeneric'))).toEqual([]);
  expect(record.stages).toMatchObject({ c2: { status: 'skipped', skip_reason: 'no_gpu_worker' }, c3: { status: 'skipped', skip_reason: 'no_gpu_worker' }, c4: { status: 'skipped', skip_reason: 'no_gpu_worker' }, c5: { status: 'success' } });
});

test("a repository without GPU support: C3 and C4 not_applicable, whatever the machine", async () => {
  machine = { gpus: 2 };
  report = { cuda_available: true, gpu_count: 2 };
  const { record } = await run(input('gpu/rec/r/4', { run: true }, ['cpu']));
  expect(record.stages).toMatchObject({ c3: { status: 'skipped', skip_reason: 'not_applicable' }, c4: { status: 'skipped', skip_reason: 'not_applicable' } });
});

test("C5 against C2: a report claiming CUDA that C2's probe does not see is a capability finding", async () => {
  machine = { gpus: 0 };
  report = { cuda_available: true, gpu_count: 2 };
  const { record } = await run(input('gpu/rec/r/5', { run: true }));
  expect(record.stages.c2).toMatchObject({ status: 'success', observed: { cuda_available: false } });
  expect(record.stages.c5).toMatchObject({ status: 'failure', capability: 2 });
});

const withRepo = (i: ReadinessInstanceInput, repo: Partial<ReadinessInstanceInput['repo']>): ReadinessInstanceInput => ({ ...i, repo: { ...i.repo, ...repo } });

test('no command for a GPU stage: the generic probe decides it (upstream has no script there), not no_entry', async () => {
  machine = { gpus: 2 };
  report = { cuda_available: true, gpu_count: 2, ddp_expected_ok: true };
  const { record, seen } = await run(withRepo(input('gpu/rec/r/6', { run: true }), { entry: { cpu: 'python train.py --cpu' } }));
  expect(named(seen, 'probeEntry:c3')).toEqual([]);
  expect(named(seen, 'probeEntry:c4')).toEqual([]);
  expect(record.stages.c3).toMatchObject({ status: 'success', decided_by: 'generic', command: 'python3 kernel_check.py cuda', generic: { probe: 'kernel', ok: true } });
  expect(record.stages.c4).toMatchObject({ status: 'success', decided_by: 'generic', command: 'torchrun all_reduce.py' });
});

test("a generic probe that fails fails the stage even where the repository's command passes, and C5 reads C4 so", async () => {
  machine = { gpus: 2 };
  report = { cuda_available: true, gpu_count: 2, ddp_expected_ok: true };
  outcome = { generic: false, prepare: true };
  try {
    const { record } = await run(input('gpu/rec/r/7', { run: true }));
    expect(record.stages.c3).toMatchObject({ status: 'failure', decided_by: 'both', error_excerpt: 'generic probe: the matmul differs from the CPU', generic: { ok: false, problem: 'mismatch' } });
    expect(record.stages.c4).toMatchObject({ status: 'failure', decided_by: 'both', generic: { problem: 'wrong_sum' } });
    expect(record.stages.c5).toMatchObject({ capability: 1 });
  } finally {
    outcome = { generic: true, prepare: true };
  }
});

test('the prepare stage: once, with the hidden scripts, before the entries; they run in its image with the scripts, the other probes in the frozen one', async () => {
  machine = { gpus: 2 };
  report = { cuda_available: true, gpu_count: 2, ddp_expected_ok: true };
  const repo = { scripts: '/srv/reb/scripts/r', prepare: 'bash /opt/envgap/scripts/prepare_assets.sh' };
  const { record, seen } = await run(withRepo(input('gpu/rec/r/8', { run: true }), repo));
  expect(named(seen, 'prepareAssets')).toHaveLength(1);
  expect(named(seen, 'prepareAssets')[0]!.input).toMatchObject({ command: repo.prepare, scripts: repo.scripts, frozenImage: 'envgap/frozen:x' });
  // Before every probe of the repository's own commands.
  expect(seen.findIndex((c) => c.name === 'prepareAssets')).toBeLessThan(seen.findIndex((c) => c.name === 'probeEntry:c1'));
  for (const s of ['c1', 'c3', 'c4']) expect(named(seen, `probeEntry:${s}`)[0]!.input).toMatchObject({ frozenImage: 'envgap/frozen:x-prepared', scripts: repo.scripts });
  for (const name of ['probeFacts', 'probeCuda', 'probeGeneric:c3']) {
    expect(named(seen, name)[0]!.input).toMatchObject({ frozenImage: 'envgap/frozen:x' });
    expect(named(seen, name)[0]!.input).not.toHaveProperty('scripts');
  }
  expect(record.prepare).toMatchObject({ status: 'success', command: repo.prepare });
  expect(record.stages).toMatchObject({ c1: { status: 'success' }, c3: { decided_by: 'both' } });
});

test('a failed prepare stage: the repository commands are skipped as prepare_failed, the generic probes still decide', async () => {
  machine = { gpus: 2 };
  report = { cuda_available: true, gpu_count: 2, ddp_expected_ok: true };
  outcome = { generic: true, prepare: false };
  try {
    const { record, seen } = await run(withRepo(input('gpu/rec/r/9', { run: true }), { prepare: 'python download.py' }));
    expect(seen.filter((c) => c.name.startsWith('probeEntry'))).toEqual([]);
    expect(record.prepare).toMatchObject({ status: 'failure', error_excerpt: 'curl: (6) Could not resolve host' });
    expect(record.stages.c1).toMatchObject({ status: 'skipped', skip_reason: 'prepare_failed' });
    expect(record.stages.c3).toMatchObject({ status: 'success', decided_by: 'generic' });
  } finally {
    outcome = { generic: true, prepare: true };
  }
});

test('gpu_share: the session and every probe are told that GPUs may be shared; without it, nothing is said', async () => {
  machine = { gpus: 2 };
  report = { cuda_available: true, gpu_count: 2 };
  const shared = await run({ ...input('gpu/rec/r/10', { run: true }), gpuShare: true });
  expect(named(shared.seen, 'openRepoContainer')[0]!.input).toMatchObject({ gpuShare: true, gpu: { run: true } });
  for (const name of ['probeFacts', 'probeCuda', 'probeGeneric:c3', 'probeEntry:c4']) expect(named(shared.seen, name)[0]!.input).toMatchObject({ gpuShare: true });
  const own = await run(input('gpu/rec/r/11', { run: true }));
  for (const c of own.seen) expect(c.input).not.toHaveProperty('gpuShare');
});
