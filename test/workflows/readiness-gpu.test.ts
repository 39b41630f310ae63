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

const stage = (command: string | null) => ({ status: 'success' as const, skip_reason: null, failure_category: null, exit_code: 0, error_excerpt: null, duration_s: 1, command });

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
    probeCuda: (input: Record<string, unknown>) => (
      note('probeCuda', input),
      { ...stage('cuda-check'), observed: { framework: 'torch', framework_version: '2.5.1', cuda_available: machine.gpus > 0, device_count: machine.gpus, cuda_version: '12.4' } }
    ),
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
  expect(record.stages).toMatchObject({ c2: { status: 'success', observed: { device_count: 2 } }, c3: { status: 'success' }, c4: { status: 'success' }, c5: { status: 'success', capability: 0 } });
  expect(record.gpu).toEqual({ name: 'NVIDIA H200', driver_version: '570.86.15', count: 2 });
});

test('one GPU: C4 is insufficient_hardware, and a report that expected DDP to work is a capability finding', async () => {
  machine = { gpus: 1 };
  report = { cuda_available: true, gpu_count: 1, ddp_expected_ok: true };
  const { record, seen } = await run(input('gpu/rec/r/2', { run: true }));
  expect(named(seen, 'probeEntry:c4')).toEqual([]);
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
