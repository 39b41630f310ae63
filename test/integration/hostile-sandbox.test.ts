import { MockActivityEnvironment } from '@temporalio/testing';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createCliSessionActivities } from '../../src/activities/readiness/cliSession';
import { createProbeActivities } from '../../src/activities/readiness/probes';
import { createSessionActivities } from '../../src/activities/readiness/session';
import { createPassActivities, type RunSetupScriptResult } from '../../src/activities/readme/passAt1';
import { BlobStore } from '../../src/db/blobs';
import { CliSpec } from '../../src/domain/agentSpec';
import type { ReadinessInstanceInput } from '../../src/domain/readinessStudy';
import type { SandboxLimits } from '../../src/domain/sandboxLimits';
import { PIP_CACHE_BIND } from '../../src/infra/caches';
import { connectDocker } from '../../src/infra/docker';
import { ensureRecipeImage } from '../../src/infra/images';
import { CA_ENV } from '../../src/infra/recipes';
import { loadSettings } from '../../src/infra/settings';
import { readinessRecipe } from '../../src/readiness/images';
import { Sandbox, sandboxLabels, SANDBOX_LABELS } from '../../src/sandbox';
import { referenceData } from '../helpers/data';
import { freshDatabase } from '../helpers/postgres';

// Issue 22's hostile session, contained by the one sandbox in every protocol: it plants a file in pip's
// cache folder, spawns 3,000 background processes and asks for a 6 GB file. The processes stop at the
// pids limit, the file is refused at disk_mb (DiskLimit), and the shared pip cache volume is never
// mounted, so it is unchanged. As a readiness replay session (each step its own activity, the sandbox
// re-attached by name), as a README agent in the repository's container, and as a Pass@1 setup script.
const docker = connectDocker();
const settings = loadSettings();
const SHARED_CACHE = PIP_CACHE_BIND.split(':')[0]!;
const MARKER = `envgap-hostile-${process.pid}`;
const LIMITS: SandboxLimits = { memory_mb: 1024, cpus: 1, pids: 128, disk_mb: 1024, shm_mb: 32 };
const env = new MockActivityEnvironment();
const call = <I, O>(activity: (input: I) => Promise<O>, input: I): Promise<O> => env.run(activity, input) as Promise<O>;

const PLANT = `mkdir -p /root/.cache/pip && echo planted > /root/.cache/pip/${MARKER} && echo PLANTED`;
const SPAWN = `python3 - <<'PY'
import subprocess
started = 0
for _ in range(3000):
    try:
        subprocess.Popen(['sleep', '600'])
        started += 1
    except OSError as e:
        print('refused:', type(e).__name__, e, flush=True)
        break
print('started', started, 'of 3000', flush=True)
PY`;
const FILL = 'fallocate -l 6G /root/big';
const HOSTILE = [PLANT, SPAWN, FILL];

let database: Awaited<ReturnType<typeof freshDatabase>>;
let blobs: BlobStore;
let corpus: string;

/** The shared cache volume's files (path, size, mtime) from its mountpoint; empty where the volume does not exist. */
async function sharedCacheListing(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const volume = await docker.getVolume(SHARED_CACHE).inspect().catch(() => null);
  if (!volume) return out;
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const st = fs.lstatSync(p);
        out.set(path.relative(volume.Mountpoint, p), `${st.size}@${st.mtimeMs}`);
      }
    }
  };
  walk(volume.Mountpoint);
  return out;
}

/**
 * Unchanged by us: nothing of ours in it, and every file there before is there after as it was.
 * (Other test files, run beside this one, may add files through the gap protocol's install steps.)
 */
function expectUnchanged(before: Map<string, string>, after: Map<string, string>): void {
  expect([...after.keys()].filter((k) => k.includes(MARKER))).toEqual([]);
  expect([...before].filter(([k, v]) => after.get(k) !== v)).toEqual([]);
}

async function expectNoSharedCache(container: string): Promise<void> {
  const info = await docker.getContainer(container).inspect();
  expect((info.Mounts ?? []).filter((m) => m.Name === SHARED_CACHE || m.Destination.startsWith('/root/.cache'))).toEqual([]);
  expect(info.HostConfig).toMatchObject({ PidsLimit: LIMITS.pids, ShmSize: LIMITS.shm_mb * 2 ** 20, Memory: LIMITS.memory_mb * 2 ** 20 });
}

const startedOf = (output: string) => Number(/started (\d+) of 3000/.exec(output)?.[1] ?? NaN);

beforeAll(async () => {
  database = await freshDatabase();
  blobs = new BlobStore(database.db);
  corpus = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-hostile-'));
  fs.mkdirSync(path.join(corpus, 'repos', 'hostile'), { recursive: true });
  fs.writeFileSync(path.join(corpus, 'repos', 'hostile', 'main.py'), 'print("hello")\n');
  fs.mkdirSync(path.join(corpus, 'sessions', 'hostile', '1'), { recursive: true });
  fs.writeFileSync(path.join(corpus, 'sessions', 'hostile', '1', 'session.jsonl'), HOSTILE.map((cmd) => JSON.stringify({ cmd, timeout_s: 300 })).join('\n') + '\n');
  await ensureRecipeImage(docker, settings, 'readiness', readinessRecipe, () => undefined);
}, 1800000);

afterAll(async () => {
  fs.rmSync(corpus, { recursive: true, force: true });
  await database?.drop();
});

test('a readiness replay session: processes capped at pids, the 6 GB file refused (DiskLimit), the shared pip cache untouched', async () => {
  const before = await sharedCacheListing();
  const session = createSessionActivities({ docker, blobs, settings });
  const instanceId = `hostile/replay/hostile/${process.pid}`;
  const input = {
    instanceId,
    study: 'hostile',
    agent: { kind: 'replay', name: 'replay', path: path.join(corpus, 'sessions') },
    repo: { id: 'hostile', source: { kind: 'folder', path: path.join(corpus, 'repos', 'hostile') }, supports: ['cpu'], entry: {}, stageTimeoutS: 300 },
    trial: 1,
    budget: { wallS: 3600, steps: 20, tokens: null },
    gpu: { run: false, skipReason: 'gpu_off' },
    memoryMb: LIMITS.memory_mb,
    cpus: LIMITS.cpus,
    limits: LIMITS,
  } as ReadinessInstanceInput;
  const opened = await call(session.openRepoContainer, input);
  let frozen: string | null = null;
  try {
    expect(opened.sandbox).toMatchObject({ ...LIMITS, network: 'envgap-sandbox', disk: 'layer-fs', caches: 'none', gpus: false });
    await expectNoSharedCache(opened.container);
    const labels = (await docker.getContainer(opened.container).inspect()).Config.Labels;
    expect(labels).toMatchObject({ [SANDBOX_LABELS.instance]: instanceId, [SANDBOX_LABELS.protocol]: 'readiness', [SANDBOX_LABELS.role]: 'session', [SANDBOX_LABELS.attempt]: '1' });

    const replay = await call(session.loadReplaySession, { path: path.join(corpus, 'sessions'), repo: 'hostile', trial: 1 });
    const steps = [];
    // Each step re-attaches to the sandbox by name, as a later activity (on this worker) does.
    for (let index = 0; index < replay.count; index++) steps.push(await call(session.runSessionStep, { container: opened.container, stepsHash: replay.stepsHash, index, timeoutS: 600 }));
    const [plant, spawn, fill] = steps;

    // pip's cache folder is the sandbox's own: the write lands there, not in the shared volume.
    expect(plant).toMatchObject({ exitCode: 0, limit: null });
    expect(plant!.excerpt).toContain('PLANTED');

    const spawned = await blobs.getText(spawn!.outputHash);
    expect(startedOf(spawned)).toBeLessThan(LIMITS.pids);
    expect(spawned).toMatch(/refused: BlockingIOError/);
    expect(spawn!.limit).toBe('PidsLimit');
    expect(spawned).toContain("envgap: the step hit the container's process limit (128 processes and threads)");

    expect(fill!.exitCode).not.toBe(0);
    expect(fill!.timedOut).toBe(false);
    expect(fill!.limit).toBe('DiskLimit');
    const filled = await blobs.getText(fill!.outputHash);
    expect(filled).toMatch(/No space left on device/);
    expect(filled).toContain("envgap: the step hit the container's disk limit (1024 MiB, disk_mb; layer-fs)");

    // The session's end, another activity: the disk bound still holds (the layer file system stays mounted), and the limits reached are recorded.
    const closed = await call(session.closeSession, { instanceId, container: opened.container, trackedHash: opened.trackedHash, reportHash: replay.reportHash });
    frozen = closed.frozenImage;
    expect(closed.sandbox).toMatchObject({ ...LIMITS, disk: 'layer-fs', caches: 'none' });
    expect(closed.sandbox!.limits_hit).toEqual(expect.arrayContaining(['PidsLimit', 'DiskLimit']));
    // The frozen environment carries the cleanup label too.
    expect((await docker.getImage(frozen).inspect()).Config.Labels).toMatchObject({ [SANDBOX_LABELS.instance]: instanceId });
  } finally {
    await call(session.removeSessionContainer, { container: opened.container });
    if (frozen) await call(createProbeActivities({ docker, blobs, settings }).removeFrozenImage, { frozenImage: frozen });
  }
  expectUnchanged(before, await sharedCacheListing());
}, 1200000);

test('a README agent in the repository\'s container: the same steps contained the same way', async () => {
  const before = await sharedCacheListing();
  const session = createSessionActivities({ docker, blobs, settings });
  const cli = createCliSessionActivities({ docker, blobs, settings });
  const instanceId = `hostile/readme-agent/${process.pid}`;
  const agent = CliSpec.parse({ kind: 'cli', name: 'hostile', command: HOSTILE.join('\n') });
  const opened = await call(session.openRepoContainer, { instanceId, agent, repo: { source: { kind: 'folder', path: path.join(corpus, 'repos', 'hostile') } }, memoryMb: LIMITS.memory_mb, cpus: LIMITS.cpus, limits: LIMITS, protocol: 'readme' });
  try {
    await expectNoSharedCache(opened.container);
    expect((await docker.getContainer(opened.container).inspect()).Config.Labels).toMatchObject({ [SANDBOX_LABELS.protocol]: 'readme' });
    const r = await call(cli.runCliAgent, { container: opened.container, agent, prompt: 'set it up', timeoutS: 600 });
    const output = await blobs.getText(r.outputHash);
    expect(output).toContain('PLANTED');
    expect(startedOf(output)).toBeLessThan(LIMITS.pids);
    expect(r.exitCode).not.toBe(0);
    expect(output).toMatch(/No space left on device/);
    expect(r.limit).toBe('DiskLimit');
    expect(r.sandbox).toMatchObject({ ...LIMITS, disk: 'layer-fs', caches: 'none' });
    expect(r.sandbox!.limits_hit).toEqual(expect.arrayContaining(['PidsLimit', 'DiskLimit']));
  } finally {
    await call(session.removeSessionContainer, { container: opened.container });
  }
  expectUnchanged(before, await sharedCacheListing());
}, 1200000);

test('a Pass@1 setup script: the same steps contained the same way, the failure classed DiskLimit', async () => {
  const before = await sharedCacheListing();
  const pass = createPassActivities({ docker, blobs, settings });
  const instanceId = `hostile/pass/${process.pid}`;
  const source = { kind: 'archive' as const, path: referenceData('data', 'enconda', 'repos', 'jaraco__inflect.tar.gz') };
  const script = [...HOSTILE, 'echo NOT-REACHED'].join('\n') + '\n';
  const r = (await env.run(pass.runSetupScript, { instanceId, source, scriptHash: await blobs.put(script), timeoutS: 600, memoryMb: LIMITS.memory_mb, cpus: LIMITS.cpus, limits: LIMITS })) as RunSetupScriptResult;
  const log = await blobs.getText(r.logHash!);
  expect(log).toContain('PLANTED');
  expect(startedOf(log)).toBeLessThan(LIMITS.pids);
  expect(log).not.toContain('NOT-REACHED');
  expect(r).toMatchObject({ status: 'fail', exit_code: 1, timed_out: false });
  expect(r.reason).toMatch(/^DiskLimit: script exited 1: .*No space left on device/);
  expect(r.sandbox).toMatchObject({ ...LIMITS, network: 'envgap-sandbox', disk: 'layer-fs', caches: 'none' });
  expect(r.sandbox!.limits_hit).toEqual(expect.arrayContaining(['PidsLimit', 'DiskLimit']));
  // The container went with the activity.
  expect(await docker.listContainers({ all: true, filters: { label: [`${SANDBOX_LABELS.instance}=${instanceId}`] } })).toEqual([]);
  expectUnchanged(before, await sharedCacheListing());
}, 1200000);

test('a cache mounted read-only stays so: a write into it is refused, its files unchanged', async () => {
  const volume = `envgap-test-hostile-cache-${process.pid}`;
  const image = await ensureRecipeImage(docker, settings, 'readiness', readinessRecipe, () => undefined);
  await docker.createVolume({ Name: volume });
  const labels = sandboxLabels({ instanceId: `hostile/read-only/${process.pid}`, protocol: 'readiness', role: 'probe', attempt: 1 });
  const sandbox = await Sandbox.open({ docker, settings }, { image, name: `envgap-test-hostile-ro-${process.pid}`, labels, limits: LIMITS, env: CA_ENV, caches: { binds: [`${volume}:/root/.cache/pip`], mode: 'read-only' }, network: 'bridge' });
  try {
    expect(sandbox.record.caches).toBe('read-only');
    const r = await sandbox.exec(['sh', '-c', `${PLANT} || echo REFUSED`], { timeoutS: 60 });
    expect(r.output).toMatch(/Read-only file system/);
    expect(r.output).toContain('REFUSED');
    const listed = await sandbox.exec(['sh', '-c', 'find /root/.cache/pip -type f | wc -l'], { timeoutS: 60 });
    expect(listed.output.trim()).toBe('0');
  } finally {
    await sandbox.close();
    await docker.getVolume(volume).remove();
  }
}, 600000);
