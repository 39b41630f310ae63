import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { ApplicationFailure } from '@temporalio/activity';
import { ReadinessRecord } from '../../src/domain/readiness';
import type { ReadinessInstanceInput } from '../../src/domain/readinessStudy';
import type { SetupMeasurement } from '../../src/domain/setupPrecision';
import { PROTOCOL_LIMIT_DEFAULTS } from '../../src/domain/sandboxLimits';
import type { readinessInstanceWorkflow } from '../../src/workflows/readiness';
import { QUEUES } from '../../src/workers/queues';
import { startTestWorkflowWorker, startWorkflowEnvironment, type TestWorker } from '../helpers/workflowEnv';

// The readiness workflow's setup-precision step over fake activities: what the probe is asked to
// trace (C1's entry in the image it ran in, C2's check where the repository has a GPU stage), what
// the record says was not traced, and a failed measurement kept in its block, the pyramid standing.
let env: TestWorkflowEnvironment;
let worker: TestWorker;
const calls: { name: string; input: Record<string, unknown> }[] = [];
const records = new Map<string, ReadinessRecord>();
let measurement: 'ok' | 'fault' = 'ok';

const stage = (command: string | null) => ({ status: 'success' as const, skip_reason: null, failure_category: null, exit_code: 0, error_excerpt: null, duration_s: 1, command });
const kind = (installed: string[], used: string[]) => {
  const both = installed.filter((n) => used.includes(n));
  return { installed, used, installed_used: both, precision: installed.length === 0 ? null : both.length / installed.length };
};
const MEASURED: SetupMeasurement = {
  python: '/opt/venv/bin/python',
  base_image: 'envgap/readiness:x',
  kinds: { python: kind(['six', 'tabulate'], ['tabulate']), apt: kind([], ['libc6']), npm: kind([], []) },
  installed: 2,
  installed_used: 1,
  precision: 0.5,
  traced: [{ stage: 'c1', command: 'python run.py', exit_code: 0, timed_out: false }],
};

const fakes = {
  claimWorker: () => QUEUES.cpu,
  openRepoContainer: () => ({ container: 'c', trackedHash: 't' }),
  loadReplaySession: () => ({ stepsHash: 's', count: 1, reportHash: 'r' }),
  runSessionStep: () => ({ index: 0, kind: 'command', command: 'pip install tabulate six', exitCode: 0, timedOut: false, durationMs: 1000, outputHash: 'o', excerpt: 'ok', attempt: 1, limit: null }),
  closeSession: () => ({ frozenImage: 'envgap-frozen:x', report: JSON.stringify({ python_path: '/opt/venv/bin/python', python_version: '3.11.2' }), violations: [] }),
  removeSessionContainer: () => undefined,
  removeFrozenImage: () => undefined,
  probeImports: () => ({ ...stage('pyright'), total: 1, missing: [], missing_source: [] }),
  probeEntry: (input: { command: string }) => ({ ...stage(input.command), outputHash: 'out' }),
  prepareAssets: (input: { command: string; frozenImage: string }) => ({ ...stage(input.command), outputHash: 'p', preparedImage: `${input.frozenImage}-prepared` }),
  probeFacts: () => ({ facts: { executable: true, runs: true, python_version: '3.11.2', torch_version: null, torch_error: null, cuda_available: false, device_count: 0 }, envSizeBytes: 1, gpu: null }),
  probeSetupPrecision: (input: Record<string, unknown>) => {
    calls.push({ name: 'probeSetupPrecision', input });
    if (measurement === 'fault') throw ApplicationFailure.nonRetryable('strace is not in the frozen environment', 'SetupTraceError');
    return MEASURED;
  },
  recordReadiness: (input: { instanceId: string; record: ReadinessRecord }) => void records.set(input.instanceId, input.record),
};

beforeAll(async () => {
  env = await startWorkflowEnvironment();
  worker = await startTestWorkflowWorker(env, QUEUES.cpu, fakes);
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await env?.teardown();
});

const input = (id: string, repo: Partial<ReadinessInstanceInput['repo']> = {}): ReadinessInstanceInput => ({
  instanceId: id,
  study: 'setup',
  agent: { kind: 'replay', name: 'rec', path: '/sessions' },
  repo: { id: 'r', source: { kind: 'folder', path: '/r' }, supports: ['cpu'], entry: { cpu: 'python run.py' }, stageTimeoutS: 300, ...repo },
  trial: 1,
  budget: { wallS: 600, steps: 10, tokens: null },
  gpu: { run: false, skipReason: 'no_gpu_worker' },
  memoryMb: 4096,
  cpus: 2,
  limits: PROTOCOL_LIMIT_DEFAULTS.readiness,
});

async function run(i: ReadinessInstanceInput): Promise<{ record: ReadinessRecord; asked: Record<string, unknown>[] }> {
  calls.length = 0;
  await env.client.workflow.execute<typeof readinessInstanceWorkflow>('readinessInstanceWorkflow', { workflowId: i.instanceId, taskQueue: QUEUES.cpu, args: [i] });
  return { record: ReadinessRecord.parse(records.get(i.instanceId)), asked: calls.map((c) => c.input) };
}

test("C1's entry is traced in the frozen environment with the report's interpreter; the record keeps the measurement and what was not traced", async () => {
  const { record, asked } = await run(input('setup/rec/r/1'));
  expect(asked).toHaveLength(1);
  expect(asked[0]).toMatchObject({ frozenImage: 'envgap-frozen:x', python: '/opt/venv/bin/python', cudaCheck: false, entry: { command: 'python run.py', image: 'envgap-frozen:x' }, agent: { kind: 'replay', name: 'rec' } });
  expect(record.status).toBe('completed');
  expect(record.setup_precision).toEqual({ ...MEASURED, untraced: [{ stage: 'c2', reason: 'not_applicable' }, { stage: 'c3', reason: 'not_applicable' }, { stage: 'c4', reason: 'not_applicable' }], error: null });
});

test("with a prepare stage, C1's entry is traced in its image with the repository's scripts; a GPU stage adds C2's check", async () => {
  const repo = { supports: ['cpu', 'single_gpu'] as const, prepare: 'bash /opt/envgap/scripts/prepare.sh', scripts: '/srv/scripts/r' };
  const { record, asked } = await run(input('setup/rec/r/2', { ...repo, supports: [...repo.supports] }));
  expect(asked[0]).toMatchObject({ frozenImage: 'envgap-frozen:x', cudaCheck: true, entry: { command: 'python run.py', image: 'envgap-frozen:x-prepared', scripts: '/srv/scripts/r' } });
  expect(asked[0]).not.toHaveProperty('scripts');
  expect(record.setup_precision!.untraced).toEqual([{ stage: 'c3', reason: 'needs_gpu' }, { stage: 'c4', reason: 'not_applicable' }]);
});

test('no CPU entry: nothing of C1 is traced, and the record says why', async () => {
  const { record, asked } = await run(input('setup/rec/r/3', { entry: {} }));
  expect(asked[0]).toMatchObject({ entry: null, cudaCheck: false });
  expect(record.setup_precision!.untraced[0]).toEqual({ stage: 'c1', reason: 'no_entry' });
});

test('a failed measurement is a harness fault of the block only: the pyramid and the record stand', async () => {
  measurement = 'fault';
  try {
    const { record } = await run(input('setup/rec/r/4'));
    expect(record.status).toBe('completed');
    expect(record.stages.c1).toMatchObject({ status: 'success' });
    expect(record.setup_precision).toMatchObject({ precision: null, kinds: null, error: { kind: 'SetupTraceError', message: expect.stringContaining('strace is not in the frozen environment') } });
  } finally {
    measurement = 'ok';
  }
});
