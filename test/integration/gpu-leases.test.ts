import { connectDocker, removeContainerIfExists } from '../../src/infra/docker';
import { ensureRuntimeImage } from '../../src/infra/images';
import { loadSettings } from '../../src/infra/settings';
import { GPU_LABEL, formatGpuLabel, parseGpuLabel } from '../../src/sandbox/gpuChoice';
import { createWithGpus } from '../../src/sandbox/gpuLeases';
import { SANDBOX_LABELS } from '../../src/sandbox/names';

// GPU leases kept by Docker itself (container labels), on real containers. This machine has no GPU:
// the containers carry the lease label without a device request (Sandbox.open adds that, with the
// same indexes); what is tested is who gets which GPUs, and when.
const docker = connectDocker();
const settings = loadSettings();
let image: string;
const made: string[] = [];
const MACHINE = [0, 1];

beforeAll(async () => {
  image = await ensureRuntimeImage(docker, settings, 'python', () => undefined);
}, 600_000);
afterAll(async () => {
  for (const name of made) await removeContainerIfExists(docker, name);
});

const name = (what: string) => {
  const n = `envgap-test-gpu-${what}-${process.pid}`;
  made.push(n);
  return n;
};
const create = (n: string, instanceId: string) => (gpus: number[]) =>
  docker.createContainer({ name: n, Image: image, Cmd: ['sleep', 'infinity'], Labels: { [SANDBOX_LABELS.instance]: instanceId, [GPU_LABEL]: formatGpuLabel(gpus) } });
const lease = (n: string, instanceId: string, count: number | 'all', extra: { signal?: AbortSignal; onWait?: (l: string) => void; share?: boolean } = {}) =>
  createWithGpus(docker, { name: n, instanceId, request: { count, share: extra.share ?? false }, machine: MACHINE, create: create(n, instanceId), remove: async () => void (await removeContainerIfExists(docker, n)), ...extra });
const held = async (n: string) => parseGpuLabel((await docker.getContainer(n).inspect()).Config.Labels[GPU_LABEL]);

test('two instances get different GPUs; a third waits until one is removed, then takes what was freed', async () => {
  const a = await lease(name('a'), 'study/a', 1);
  const b = await lease(name('b'), 'study/b', 1);
  expect([a.gpus, b.gpus]).toEqual([[0], [1]]);
  // The lease is the container's label: a worker that restarts reads the same.
  expect(await held(name('a'))).toEqual([0]);

  const waits: string[] = [];
  const c = lease(name('c'), 'study/c', 1, { onWait: (l) => waits.push(l) });
  // C waits while both GPUs are held (its first look said so)...
  await new Promise<void>((resolve) => {
    const t = setInterval(() => waits.length > 0 && (clearInterval(t), resolve()), 50);
  });
  expect(waits[0]).toContain('held by study/a, study/b');
  // ...and has GPU 1 once B's container is removed (B's instance ended, or was cancelled).
  await removeContainerIfExists(docker, name('b'));
  expect((await c).gpus).toEqual([1]);
}, 120_000);

test("an instance's own containers never block it; all GPUs wait for every other instance", async () => {
  // study/a holds GPU 0 and study/c GPU 1: all of them, for study/a, waits on study/c alone.
  const ac = new AbortController();
  let said = '';
  const blocked = lease(name('own1'), 'study/a', 'all', { signal: ac.signal, onWait: (l) => ((said = l), ac.abort(new Error('stopped waiting'))) });
  await expect(blocked).rejects.toThrow('stopped waiting');
  expect(said).toContain('held by study/c');
  await removeContainerIfExists(docker, name('c'));
  // Only study/a's own container holds a GPU now: it gets them all.
  expect((await lease(name('own2'), 'study/a', 'all')).gpus).toEqual([0, 1]);
}, 120_000);

test('a study that shares lets instances hold the same GPUs', async () => {
  const d = await lease(name('d'), 'study/d', 'all', { share: true });
  expect(d.gpus).toEqual([0, 1]);
}, 60_000);

test('a wait is abortable (a cancelled instance stops waiting)', async () => {
  const ac = new AbortController();
  const e = lease(name('e'), 'study/e', 'all', { signal: ac.signal, onWait: () => ac.abort(new Error('cancelled')) });
  await expect(e).rejects.toThrow('cancelled');
}, 60_000);
