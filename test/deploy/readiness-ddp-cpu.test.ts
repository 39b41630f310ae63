import { MockActivityEnvironment } from '@temporalio/testing';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createProbeActivities } from '../../src/activities/readiness/probes';
import { createSessionActivities } from '../../src/activities/readiness/session';
import { BlobStore } from '../../src/db/blobs';
import type { ReadinessInstanceInput } from '../../src/domain/readinessStudy';
import { connectDocker } from '../../src/infra/docker';
import { loadSettings } from '../../src/infra/settings';
import { REPO_ROOT } from '../helpers/harness';
import { freshDatabase } from '../helpers/postgres';

// The C4 probe's launcher path on this CPU machine: the tiny trainer set up by its recorded session
// (torch from PyPI, through the shared pip cache volume), frozen, then its multi-GPU entry through the
// same probe activity as C4, without device requests: torchrun starts two processes that train over
// gloo. The generic probes run beside it on the same frozen torch: the all-reduce over two gloo ranks
// and the kernel check in its cpu mode. The workflow gives C3 and C4 the GPUs (device requests) and
// routes them to a GPU worker; that half is scripts/gpu-check.sh on a GPU machine.
const docker = connectDocker();
const settings = loadSettings();
let database: Awaited<ReturnType<typeof freshDatabase>>;
let blobs: BlobStore;
let frozenImage: string;
let python: string;
const env = new MockActivityEnvironment();
const call = <I, O>(activity: (input: I) => Promise<O>, input: I): Promise<O> => env.run(activity, input) as Promise<O>;
const instanceId = 'ddp-cpu/replay/tiny-trainer/1';
const probe = () => ({ instanceId, frozenImage, memoryMb: 8192, cpus: 2, timeoutS: 600 });

beforeAll(async () => {
  database = await freshDatabase();
  blobs = new BlobStore(database.db);
  const session = createSessionActivities({ docker, blobs, settings, log: (l) => process.stdout.write(`${l}\n`) });
  const input = {
    instanceId,
    study: 'ddp-cpu',
    agent: { kind: 'replay', name: 'replay', path: path.join(REPO_ROOT, 'corpus/readiness/sessions-gpu') },
    repo: { id: 'tiny-trainer', source: { kind: 'folder', path: path.join(REPO_ROOT, 'corpus/readiness/repos/tiny-trainer') }, supports: ['cpu', 'multi_gpu'], entry: {}, stageTimeoutS: 600 },
    trial: 1,
    budget: { wallS: 3600, steps: 20, tokens: null },
    gpu: { run: false, skipReason: 'gpu_off' },
    memoryMb: 8192,
    cpus: 2,
  } as ReadinessInstanceInput;
  const opened = await call(session.openRepoContainer, input);
  const replay = await call(session.loadReplaySession, { path: input.agent.kind === 'replay' ? input.agent.path : '', repo: 'tiny-trainer', trial: 1 });
  for (let index = 0; index < replay.count; index++) {
    const step = await call(session.runSessionStep, { container: opened.container, stepsHash: replay.stepsHash, index, timeoutS: 3600 });
    if (step.exitCode !== 0) throw new Error(`session step ${index} failed (exit ${step.exitCode}): ${await blobs.getText(step.outputHash)}`);
  }
  const closed = await call(session.closeSession, { instanceId, container: opened.container, trackedHash: opened.trackedHash, reportHash: replay.reportHash });
  await call(session.removeSessionContainer, { container: opened.container });
  frozenImage = closed.frozenImage;
  python = (JSON.parse(closed.report!) as { python_path: string }).python_path;
}, 1800000);

afterAll(async () => {
  if (frozenImage) await call(createProbeActivities({ docker, blobs, settings }).removeFrozenImage, { frozenImage });
  await database?.drop();
});

test('the multi-GPU entry through the C4 probe: torchrun, two processes, gloo, on the agent\'s interpreter', async () => {
  const probes = createProbeActivities({ docker, blobs, settings });
  const r = await call(probes.probeEntry, { ...probe(), stage: 'c4', command: 'torchrun --standalone --nproc_per_node 2 train.py --ddp --steps 3', gpus: false, python });
  const output = await blobs.getText(r.outputHash);
  expect({ status: r.status, exit_code: r.exit_code, failure_category: r.failure_category }).toEqual({ status: 'success', exit_code: 0, failure_category: null });
  expect(output).toMatch(/device=cpu ddp=True world=2 loss=\d/);
}, 600000);

test('C2 on this machine: the frozen torch imports and sees no GPU, a runtime failure that names the framework', async () => {
  const probes = createProbeActivities({ docker, blobs, settings });
  const r = await call(probes.probeCuda, { ...probe(), python, gpus: false });
  expect(r).toMatchObject({ status: 'failure', failure_category: 'runtime', error_excerpt: 'torch sees no GPU' });
  expect(r.observed).toMatchObject({ framework: 'torch', cuda_available: false, device_count: 0 });
  expect(r.observed!.framework_version).toMatch(/^2\./);
}, 600000);

test('the generic C4 probe: torchrun through the agent\'s interpreter, two gloo ranks, each rank\'s rank + 1 summed', async () => {
  const probes = createProbeActivities({ docker, blobs, settings });
  const r = await call(probes.probeGeneric, { ...probe(), stage: 'c4', python, gpus: false, backend: 'gloo', nproc: 2 });
  const output = await blobs.getText(r.outputHash);
  expect({ status: r.status, exit_code: r.exit_code, failure_category: r.failure_category }).toEqual({ status: 'success', exit_code: 0, failure_category: null });
  expect(r.command).toBe(`'${python}' -m torch.distributed.run --standalone --nnodes 1 --nproc_per_node 2 /tmp/envgap-generic/all_reduce.py --backend gloo --timeout-s 570`);
  expect(r.verdict).toMatchObject({ probe: 'all_reduce', ok: true, problem: null, backend: 'gloo', world_size: 2, seen_world_size: 2, expected: 3, got: 3, mismatched_elements: 0, ranks_ok: 2, nccl_version: null });
  expect(r.verdict!.probe === 'all_reduce' && r.verdict!.framework_version).toMatch(/^2\./);
  expect(output).toContain('"probe": "all_reduce"');
}, 600000);

test('the generic C3 probe in cpu mode: the kernel check\'s matmul on the agent\'s torch matches the CPU\'s', async () => {
  const probes = createProbeActivities({ docker, blobs, settings });
  const r = await call(probes.probeGeneric, { ...probe(), stage: 'c3', python, gpus: false });
  expect({ status: r.status, exit_code: r.exit_code, failure_category: r.failure_category }).toEqual({ status: 'success', exit_code: 0, failure_category: null });
  expect(r.verdict).toMatchObject({ probe: 'kernel', ok: true, problem: null, framework: 'torch', device: 'cpu', size: 1024, tolerance: 0.01 });
  expect(r.verdict!.probe === 'kernel' ? r.verdict!.max_abs_error : null).toBeLessThanOrEqual(1e-3);
  expect(r.verdict!.timings_s).toEqual({ alloc: expect.any(Number), to_device: expect.any(Number), matmul: expect.any(Number), to_host: expect.any(Number), cpu_matmul: expect.any(Number) });
}, 600000);

test('the generic C3 probe where the report names no interpreter: python3 of the image has no framework, a deps failure', async () => {
  const probes = createProbeActivities({ docker, blobs, settings });
  const r = await call(probes.probeGeneric, { ...probe(), stage: 'c3', python: null, gpus: false });
  expect({ status: r.status, exit_code: r.exit_code, failure_category: r.failure_category }).toEqual({ status: 'failure', exit_code: 1, failure_category: 'deps' });
  expect(r.verdict).toMatchObject({ probe: 'kernel', ok: false, problem: 'no_framework' });
  expect(r.error_excerpt).toMatch(/^no framework imports \(torch, tensorflow, jax\): torch: ModuleNotFoundError/);
}, 600000);

test("the prepare stage: the hidden scripts mounted read-only, its assets committed for the repository's commands; a failed one commits nothing", async () => {
  const probes = createProbeActivities({ docker, blobs, settings });
  const scripts = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-scripts-'));
  fs.writeFileSync(path.join(scripts, 'prepare_assets.sh'), 'set -e\nmkdir -p /repo/benchmark_assets\necho "$(python --version 2>&1)" > /repo/benchmark_assets/made.txt\n! touch /opt/envgap/scripts/written 2>/dev/null\n');
  fs.writeFileSync(path.join(scripts, 'run_cpu.sh'), 'cat /repo/benchmark_assets/made.txt\n');
  fs.chmodSync(scripts, 0o755);
  const withScripts = { ...probe(), scripts };
  const prepared = await call(probes.prepareAssets, { ...withScripts, command: 'bash /opt/envgap/scripts/prepare_assets.sh', python });
  expect({ status: prepared.status, exit_code: prepared.exit_code, preparedImage: prepared.preparedImage }).toEqual({ status: 'success', exit_code: 0, preparedImage: `${frozenImage}-prepared` });
  expect(fs.existsSync(path.join(scripts, 'written'))).toBe(false);
  // The entry runs in the prepared image and reads what the prepare stage wrote, with the agent's python on PATH.
  const entry = await call(probes.probeEntry, { ...withScripts, frozenImage: prepared.preparedImage!, stage: 'c1', command: 'bash /opt/envgap/scripts/run_cpu.sh', gpus: false, python });
  expect(entry).toMatchObject({ status: 'success', exit_code: 0 });
  expect(await blobs.getText(entry.outputHash)).toMatch(/^Python 3\.\d+/);
  // The frozen image itself is as the agent left it.
  const plain = await call(probes.probeEntry, { ...withScripts, stage: 'c1', command: 'test ! -e /repo/benchmark_assets/made.txt', gpus: false, python });
  expect(plain).toMatchObject({ status: 'success' });
  const failed = await call(probes.prepareAssets, { ...withScripts, command: 'echo fetching; exit 6', python });
  expect(failed).toMatchObject({ status: 'failure', exit_code: 6, preparedImage: null });
  // removeFrozenImage takes the prepared image with the frozen one (afterAll), and a second time is fine.
  await call(probes.removeFrozenImage, { frozenImage: `${frozenImage}-nothing` });
  fs.rmSync(scripts, { recursive: true, force: true });
}, 600000);
