import { DEFAULT_SANDBOX_LIMITS, instanceLimits, PROTOCOL_LIMIT_DEFAULTS, resolveLimits } from '../../../src/domain/sandboxLimits';
import { createOptions, mountedCaches, storedSpecOf } from '../../../src/sandbox/create';
import { checkSpec, SANDBOX_LABELS, sandboxIdentity, SandboxSpecError, specProblems, type SandboxSpec } from '../../../src/sandbox';
import type { StoredSpec } from '../../../src/sandbox/spec';

// The sandbox's pure half: what a spec may ask, and the Docker options and labels it becomes.
const owner = { instanceId: 's/agent/repo/1', protocol: 'readiness' as const, role: 'session', attempt: 2 };
const spec = (over: Partial<SandboxSpec> = {}): SandboxSpec => ({
  image: 'envgap/readiness:abc',
  ...sandboxIdentity(owner),
  limits: { ...DEFAULT_SANDBOX_LIMITS, pids: 256, disk_mb: 1024, shm_mb: 128 },
  network: 'sandbox',
  caches: { binds: [], mode: 'none' },
  ...over,
});

describe('specProblems', () => {
  test('a good spec has none', () => {
    expect(specProblems(spec())).toEqual([]);
    expect(checkSpec(spec())).toEqual({ memory_mb: 4096, cpus: 2, pids: 256, disk_mb: 1024, shm_mb: 128 });
  });

  test.each<[string, Partial<SandboxSpec>, RegExp]>([
    ['a name Docker refuses', { name: '-bad name' }, /^name: "-bad name" is not a Docker container name/],
    ['no image', { image: ' ' }, /^image: empty/],
    ['no cleanup label', { labels: { other: 'x' } }, /^labels: envgap\.instance is missing/],
    ['pids under the floor', { limits: { ...DEFAULT_SANDBOX_LIMITS, pids: 3 } }, /^limits\.pids: 3 is outside 16\.\.32768/],
    ['a fractional disk', { limits: { ...DEFAULT_SANDBOX_LIMITS, disk_mb: 1024.5 } }, /^limits\.disk_mb: 1024\.5 is not a whole number/],
    ['/dev/shm beyond memory', { limits: { ...DEFAULT_SANDBOX_LIMITS, memory_mb: 512, shm_mb: 1024 } }, /^limits\.shm_mb: 1024 MiB is more than memory_mb \(512 MiB\)/],
    ['caches given with mode none', { caches: { binds: ['envgap-pip-cache:/root/.cache/pip'], mode: 'none' } }, /^caches: binds given with mode none/],
    ['a cache bind with a mode of its own', { caches: { binds: ['envgap-pip-cache:/root/.cache/pip:rw'], mode: 'read-only' } }, /^caches\.binds\[0\]: .* carries a mode/],
    ['a shared cache slipped in writable as a plain bind', { binds: ['envgap-pip-cache:/root/.cache/pip'] }, /^binds\[0\]: the shared cache envgap-pip-cache would be writable; give it in caches/],
    ['a bind to a relative path', { binds: ['/data:data'] }, /^binds\[0\]: "\/data:data" is not source:\/path/],
    ['an env entry without a value', { env: ['NOVALUE'] }, /^env\[0\]: "NOVALUE" is not NAME=value/],
    ['a relative workdir', { workdir: 'repo' }, /^workdir: "repo" is not an absolute path/],
  ])('%s is named', (_what, over, message) => {
    const problems = specProblems(spec(over));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
    expect(() => checkSpec(spec(over))).toThrow(SandboxSpecError);
  });

  test('a shared cache mounted read-only as a plain bind is allowed', () => {
    expect(specProblems(spec({ binds: ['envgap-pip-cache:/root/.cache/pip:ro'] }))).toEqual([]);
  });
});

describe('limits', () => {
  test('older inputs get the defaults of what they lack', () => {
    expect(resolveLimits({ memory_mb: 256, cpus: 1, pids: 64 })).toEqual({ memory_mb: 256, cpus: 1, pids: 64, disk_mb: 10240, shm_mb: 64 });
    expect(instanceLimits({ memoryMb: 8192, cpus: 2 })).toEqual({ memory_mb: 8192, cpus: 2, pids: 1024, disk_mb: 10240, shm_mb: 64 });
    expect(instanceLimits({ memoryMb: 4096, cpus: 1 }, PROTOCOL_LIMIT_DEFAULTS.readiness)).toEqual({ memory_mb: 4096, cpus: 1, pids: 1024, disk_mb: 32768, shm_mb: 4096 });
    expect(instanceLimits({ memoryMb: 8192, cpus: 2, limits: { memory_mb: 1024, cpus: 1, pids: 100, disk_mb: 512, shm_mb: 32 } })).toEqual({ memory_mb: 1024, cpus: 1, pids: 100, disk_mb: 512, shm_mb: 32 });
  });
});

describe('caches as mounted', () => {
  const pip = ['envgap-pip-cache:/root/.cache/pip'];
  test('read-only: with :ro from the start, root or not', () => {
    expect(mountedCaches(pip, 'read-only', false)).toEqual({ binds: ['envgap-pip-cache:/root/.cache/pip:ro'], mode: 'read-only' });
  });
  test('install-only: writable where they can be sealed later, else not mounted at all', () => {
    expect(mountedCaches(pip, 'install-only', true)).toEqual({ binds: pip, mode: 'install-only' });
    expect(mountedCaches(pip, 'install-only', false)).toEqual({ binds: [], mode: 'none' });
  });
  test('none, or nothing to mount: none', () => {
    expect(mountedCaches([], 'read-only', true)).toEqual({ binds: [], mode: 'none' });
  });
});

describe('Docker options', () => {
  const stored: StoredSpec = { limits: checkSpec(spec()), caches: { mode: 'none', targets: [] }, network: { name: 'envgap-sandbox', policy: 'p' }, gpus: true, gpuIds: [0, 2], onDiskFull: 'refuse' };
  const o = createOptions(spec({ gpus: true, binds: ['/w:/wheelhouse:ro'], env: ['A=1'], workdir: '/repo' }), stored.limits, stored, ['envgap-pip-cache:/root/.cache/pip:ro']);

  test('every limit, the network, the binds, GPUs, under an init', () => {
    expect(o).toMatchObject({ name: spec().name, Image: 'envgap/readiness:abc', Cmd: ['sleep', 'infinity'], WorkingDir: '/repo', Env: ['A=1', 'NVIDIA_DRIVER_CAPABILITIES=compute,utility'] });
    expect(o.HostConfig).toMatchObject({
      Memory: 4096 * 2 ** 20,
      MemorySwap: 4096 * 2 ** 20,
      NanoCpus: 2e9,
      PidsLimit: 256,
      ShmSize: 128 * 2 ** 20,
      Init: true,
      NetworkMode: 'envgap-sandbox',
      Binds: ['/w:/wheelhouse:ro', 'envgap-pip-cache:/root/.cache/pip:ro'],
      DeviceRequests: [{ Driver: 'nvidia', DeviceIDs: ['0', '2'], Capabilities: [['gpu']] }],
    });
    expect(o.HostConfig?.CapAdd).toBeUndefined();
  });

  test('the labels: the cleanup family, and the spec a later activity re-attaches with', () => {
    expect(o.Labels).toMatchObject({ [SANDBOX_LABELS.instance]: owner.instanceId, [SANDBOX_LABELS.protocol]: 'readiness', [SANDBOX_LABELS.role]: 'session', [SANDBOX_LABELS.attempt]: '2' });
    expect(storedSpecOf(o.Labels)).toEqual(stored);
    expect(storedSpecOf({})).toBeNull();
    expect(storedSpecOf({ [SANDBOX_LABELS.spec]: '{not json' })).toBeNull();
  });

  test('no GPUs: no NVIDIA variables, no device request', () => {
    const plain = createOptions(spec({ env: ['A=1'] }), stored.limits, { ...stored, gpus: false }, []);
    expect(plain.Env).toEqual(['A=1']);
    expect(plain.HostConfig?.DeviceRequests).toBeUndefined();
  });

  test('names are unique per attempt', () => {
    expect(spec().name).toMatch(/^envgap-s\.agent\.repo\.1-[0-9a-f]{8}-session-a2$/);
    expect(sandboxIdentity({ ...owner, attempt: 3 }).name).not.toBe(spec().name);
  });
});
