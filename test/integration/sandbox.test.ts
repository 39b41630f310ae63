import { MockActivityEnvironment } from '@temporalio/testing';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import { createExecuteActivities } from '../../src/activities/execute';
import type { ExecuteInput, ExecutionOutcome } from '../../src/activities/types';
import { BlobStore } from '../../src/db/blobs';
import { DEFAULT_LIMITS } from '../../src/domain/study';
import { connectDocker, removeContainerIfExists } from '../../src/infra/docker';
import { ensureRuntimeImage } from '../../src/infra/images';
import { CA_ENV } from '../../src/infra/recipes';
import { loadSettings } from '../../src/infra/settings';
import { sandboxNetwork, type SandboxNetwork } from '../../src/infra/sandboxNetwork';
import { Sandbox, sandboxLabels, type CacheMode } from '../../src/sandbox';
import { freshDatabase } from '../helpers/postgres';

// The sandbox of issue 8: the disk limit, the shared caches read-only while the program runs, and a
// network that reaches the package indexes and nothing on the host or link-local.
const docker = connectDocker();
const settings = loadSettings();
const limits = { ...DEFAULT_LIMITS, disk_mb: 10240 };
let database: Awaited<ReturnType<typeof freshDatabase>>;
let activities: ReturnType<typeof createExecuteActivities>;
let blobs: BlobStore;
let image: string;
let network: SandboxNetwork;

beforeAll(async () => {
  database = await freshDatabase();
  blobs = new BlobStore(database.db);
  activities = createExecuteActivities({ db: database.db, blobs, docker, settings });
  image = await ensureRuntimeImage(docker, settings, 'python', () => undefined);
  network = await sandboxNetwork(docker, settings);
}, 300000);
afterAll(() => database?.drop());

async function execute(id: string, files: Record<string, string>, overrides: Partial<typeof limits> = {}, language: ExecuteInput['language'] = 'python'): Promise<ExecutionOutcome> {
  const filesHash = await blobs.putJson(files);
  await database.db.insertInto('iterations').values({ instance_id: id, iteration: 0, files_hash: filesHash, agent: null, execution: null }).execute();
  const input: ExecuteInput = { instanceId: id, iteration: 0, language, filesHash, limits: { ...limits, ...overrides } };
  return new MockActivityEnvironment({ attempt: 1 }).run(activities.executeProject, input);
}

const errorText = async (o: ExecutionOutcome) => (o.errorHash ? (await blobs.get(o.errorHash)).toString('utf8') : '');
const logText = async (o: ExecutionOutcome) => (await blobs.get(o.artefacts.log)).toString('utf8');

/** A throwaway sandbox (through the one interface every protocol uses), on the sandbox network or Docker's bridge. */
function open(name: string, network: 'sandbox' | 'bridge', caches: { binds: string[]; mode: CacheMode } = { binds: [], mode: 'none' }): Promise<Sandbox<typeof limits>> {
  const labels = sandboxLabels({ instanceId: `sandbox-test/${name}`, protocol: 'envgap', role: 'probe', attempt: 1 });
  return Sandbox.open({ docker, settings }, { image, name, labels, limits, env: CA_ENV, caches, network });
}

/** A throwaway container on a network, running one Python snippet. */
async function probe(name: string, network: 'sandbox' | 'bridge', code: string): Promise<string> {
  const session = await open(name, network);
  try {
    const r = await session.exec(['python', '-c', code], { step: 'probe', timeoutS: 60 });
    return r.output;
  } finally {
    await session.close();
  }
}

const connect = (host: string, port: number) => `
import socket, time
t = time.time()
try:
    socket.create_connection((${JSON.stringify(host)}, ${port}), timeout=5).close()
    print("CONNECTED")
except Exception as e:
    print("FAILED", type(e).__name__, e)
print("took %.1f s" % (time.time() - t))
`;

describe('network', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.end('host service\n'));
    await new Promise<void>((r) => server.listen(0, '0.0.0.0', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  test('the policy is recorded in words: what is allowed, what is rejected', () => {
    expect(network.name).toBe('envgap-sandbox');
    expect(network.policy).toContain('169.254.0.0/16');
    expect(network.policy).toContain('10.0.0.0/8');
  });

  test('a server on 0.0.0.0 of the host answers on the default bridge, but not from the sandbox network', async () => {
    // Docker 20.10 often lists no Gateway for the default bridge, and Node omits docker0 while no container
    // is attached (NO-CARRIER): the gateway is the first address of the bridge's subnet.
    const config = (await docker.getNetwork('bridge').inspect()).IPAM!.Config![0] as { Gateway?: string; Subnet: string };
    const gateway = config.Gateway ?? firstHost(config.Subnet);
    const reached = await probe(`envgap-test-sbx-open-${process.pid}`, 'bridge', connect(gateway, port));
    expect(reached).toContain('CONNECTED'); // the test means something: the service is there
    const closed = await probe(`envgap-test-sbx-gw-${process.pid}`, 'sandbox', connect(network.gateway, port));
    expect(closed).toMatch(/FAILED ConnectionRefusedError/);
    const other = await probe(`envgap-test-sbx-gw0-${process.pid}`, 'sandbox', connect(gateway, port));
    expect(other).toMatch(/FAILED ConnectionRefusedError/);
  }, 120000);

  test('the link-local metadata address is rejected, not dropped', async () => {
    const out = await probe(`envgap-test-sbx-md-${process.pid}`, 'sandbox', connect('169.254.169.254', 80));
    // A refused connection is a REJECT rule's answer; a dropped packet would end in a timeout instead.
    expect(out).toMatch(/FAILED ConnectionRefusedError/);
  }, 120000);

  test("an agent's call offline: loopback only while it runs, the network back after it and at re-attach", async () => {
    const name = `envgap-test-sbx-off-${process.pid}`;
    const session = await open(name, 'sandbox');
    // The interfaces but loopback (a reconnected container's is eth1, not eth0).
    const links = async (s: { exec: Sandbox['exec'] }) => (await s.exec(['ls', '/sys/class/net'], { timeoutS: 30 })).output.split(/\s+/).filter((n) => n && n !== 'lo');
    try {
      expect(await links(session)).toHaveLength(1);
      expect(await session.offline(() => links(session))).toEqual([]);
      expect(await links(session)).toHaveLength(1);
      // What `work` throws is thrown, and the network is back all the same.
      await expect(session.offline(() => Promise.reject(new Error('the agent call failed')))).rejects.toThrow('the agent call failed');
      expect(await links(session)).toHaveLength(1);
      // A worker lost while its agent ran offline: the next activity's attach puts the network back.
      await docker.getNetwork(network.name).disconnect({ Container: name, Force: true });
      expect(await links(session)).toEqual([]);
      const again = await Sandbox.attach({ docker, settings }, name);
      expect(await links(again)).toHaveLength(1);
      again.release();
    } finally {
      await session.close();
    }
  }, 120000);

  test('the package index still answers: pip download of a small package', async () => {
    const session = await open(`envgap-test-sbx-pip-${process.pid}`, 'sandbox');
    try {
      expect(session.record).toMatchObject({ network: network.name, policy: network.policy });
      const r = await session.exec(['pip', 'download', '--no-deps', '--no-cache-dir', '-d', '/tmp/dl', 'six'], { step: 'probe', timeoutS: 180 });
      expect(r.output).toMatch(/Saved \/tmp\/dl\/six-/);
      expect(r.exitCode).toBe(0);
    } finally {
      await session.close();
    }
  }, 240000);
});

describe('disk', () => {
  test('a program that writes 2 GB under disk_mb 300 is stopped near 300 MB and classed DiskLimit', async () => {
    const program = `
import os
n = 0
chunk = b"x" * (1 << 20)
try:
    with open("/work/fill", "wb") as f:
        for _ in range(2048):
            f.write(chunk)
            f.flush()
            n += 1
finally:
    print("wrote %d MB" % n, flush=True)
`;
    const o = await execute('sandbox/disk/python/fill/1', { 'main.py': program }, { disk_mb: 300 });
    expect(o.success).toBe(false);
    expect(o.errorClass).toBe('DiskLimit');
    expect(o.sandbox).toMatchObject({ disk_mb: 300, disk: 'layer-fs' });
    const text = await errorText(o);
    expect(text).toContain('disk limit of 300 MB');
    const wrote = Number(/wrote (\d+) MB/.exec(text)![1]);
    console.log(`disk_mb 300: the program wrote ${wrote} MB before ENOSPC; run step ${o.durations.run} ms`);
    expect(wrote).toBeLessThan(300);
    expect(wrote).toBeGreaterThan(150);
  }, 300000);

  test('a program that keeps writing at the limit, ignoring the errors, is stopped too', async () => {
    const program = `
chunk = b"x" * (1 << 20)
f = open("/tmp/fill", "wb")
while True:
    try:
        f.write(chunk); f.flush()
    except OSError:
        pass
`;
    // The run timeout is an hour: only the disk guard can end this run (a Timeout class would say it did not).
    const o = await execute('sandbox/disk/python/stubborn/1', { 'main.py': program }, { disk_mb: 300, run_timeout_s: 3600 });
    expect(o.errorClass).toBe('DiskLimit');
    expect(await errorText(o)).toContain('disk limit of 300 MB');
  }, 300000);
});

describe('caches', () => {
  const plant = `
import os
for d in ["/root/.cache/pip", "/root/.npm", "/root/.m2/repository"]:
    p = os.path.join(d, "envgap-planted-${process.pid}")
    try:
        open(p, "w").write("planted")
        print("WROTE", p)
    except OSError as e:
        print("REFUSED", d, e.strerror)
`;
  const look = `
import os
for d in ["/root/.cache/pip", "/root/.npm", "/root/.m2/repository"]:
    print("SEEN" if os.path.exists(os.path.join(d, "envgap-planted-${process.pid}")) else "ABSENT", d)
`;

  test('the program cannot write into the pip, npm and Maven caches, and a later instance sees nothing', async () => {
    const first = await execute('sandbox/caches/python/plant/1', { 'main.py': plant });
    expect(first.sandbox?.caches).toBe('read-only-during-run');
    const log1 = await logText(first);
    expect(log1).not.toContain('WROTE');
    expect(log1.match(/REFUSED .* Read-only file system/g)).toHaveLength(3);
    const second = await execute('sandbox/caches/python/look/1', { 'main.py': look });
    const log2 = await logText(second);
    expect(log2).not.toContain('SEEN');
    expect(log2.match(/ABSENT/g)).toHaveLength(3);
  }, 300000);

  test('javascript: npm install runs with the cache writable, the program then finds it read-only', async () => {
    const files = {
      'package.json': JSON.stringify({ name: 'sbx', version: '1.0.0', main: 'index.js' }),
      'index.js': `try { require('fs').writeFileSync('/root/.npm/envgap-planted-${process.pid}', 'x'); console.log('WROTE') } catch (e) { console.log('REFUSED', e.code) }`,
    };
    const o = await execute('sandbox/caches/javascript/plant/1', files, {}, 'javascript');
    const log = await logText(o);
    expect(o.success).toBe(true);
    expect(log).toContain('REFUSED EROFS');
  }, 300000);

  test('what an install step left running is killed before the run, even when it holds a cache file open for writing', async () => {
    const name = `envgap-test-sbx-seal-${process.pid}`;
    const volume = `envgap-test-sbx-cache-${process.pid}`;
    const session = await open(name, 'bridge', { binds: [`${volume}:/root/.cache/pip`], mode: 'install-only' });
    try {
      expect(session.record.caches).toBe('read-only-during-run');
      await session.exec(['sh', '-c', 'nohup sh -c "while :; do echo leftover-marker; sleep 1; done" > /root/.cache/pip/held 2>&1 &'], { step: 'install', timeoutS: 30 });
      // The look taken while the caches are sealed (the service watch's baseline) sees the leftover already killed.
      const looks: (string | null)[] = [];
      await session.sealForRun(async () => {
        looks.push(await session.probe(['sh', '-c', 'cat /proc/[0-9]*/cmdline 2>/dev/null | tr "\\0" " " | grep -c "leftover-marke[r]"; true']));
      });
      expect(looks).toHaveLength(1);
      expect(looks[0]?.trim()).toBe('0');
      const r = await session.exec(['sh', '-c', 'sleep 2; cat /proc/[0-9]*/cmdline 2>/dev/null | tr "\\0" " " | grep -c "leftover-marke[r]"; echo more >> /root/.cache/pip/held || echo REFUSED'], { step: 'run', timeoutS: 30 });
      expect(r.output).toContain('REFUSED');
      // stdout (the count) and stderr (the refused write) interleave in any order: find the count's line.
      expect(r.output).toMatch(/^0$/m);
    } finally {
      await session.close();
      await removeContainerIfExists(docker, name);
      await docker.getVolume(volume).remove().catch(() => undefined);
    }
  }, 120000);
});

/** The first host address of an IPv4 subnet (172.17.0.0/16 -> 172.17.0.1). */
function firstHost(subnet: string): string {
  const [base] = subnet.split('/');
  const octets = base.split('.').map(Number);
  octets[3] += 1;
  return octets.join('.');
}
