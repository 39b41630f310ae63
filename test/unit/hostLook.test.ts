import { cgroupCpuFiles, hostServiceLook } from '../../src/activities/runners/hostLook';
import { parseProbe } from '../../src/activities/runners/serviceWatch';

const ID = '291cee783fbc8b926d8317a7b5ef0cfc27134bbcdd2a34971130055a24237573';
const V1 = ['9:name=systemd', '2:cpuacct', '1:cpu', '0:'].map((c) => `${c}:/docker/${ID}`).join('\n');
const TCP = [
  '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
  '   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0000000000000000 100 0 0 10 0',
].join('\n');

describe('hostServiceLook', () => {
  const files = (extra: Record<string, string> = {}) => (p: string) => {
    const all: Record<string, string> = { '/proc/7/cgroup': V1, '/proc/7/net/tcp': TCP + '\n', '/proc/7/net/tcp6': '', [`/sys/fs/cgroup/cpuacct/docker/${ID}/cpuacct.usage`]: '27874577\n', ...extra };
    if (!(p in all)) throw new Error(`ENOENT ${p}`);
    return all[p]!;
  };

  test("reads the container's sockets and CPU time from the host, in the probe's own format", () => {
    const text = hostServiceLook(7, ID, files());
    expect(text).not.toBeNull();
    expect(parseProbe(text!)).toEqual({ ports: [8080], cpuNs: 27874577 });
  });

  test('cgroup v2: usage_usec of cpu.stat', () => {
    const v2 = `0::/system.slice/docker-${ID}.scope`;
    const text = hostServiceLook(7, ID, files({ '/proc/7/cgroup': v2, [`/sys/fs/cgroup/system.slice/docker-${ID}.scope/cpu.stat`]: 'usage_usec 1500\nuser_usec 1000\n' }));
    expect(parseProbe(text!)).toEqual({ ports: [8080], cpuNs: 1500000 });
  });

  test("is null where the pid is not this container's (another pid namespace, or reused), so the caller execs instead", () => {
    expect(hostServiceLook(7, 'f'.repeat(64), files())).toBeNull();
    expect(hostServiceLook(8, ID, files())).toBeNull();
    expect(hostServiceLook(0, ID, files())).toBeNull();
  });

  test('no readable CPU time is a reading without it, not a failure', () => {
    const text = hostServiceLook(7, ID, files({ [`/sys/fs/cgroup/cpuacct/docker/${ID}/cpuacct.usage`]: '' }));
    expect(parseProbe(text!)).toEqual({ ports: [8080], cpuNs: null });
  });
});

test('cgroupCpuFiles: the cpuacct controller first (also mounted as cpu,cpuacct), then the unified hierarchy', () => {
  expect(cgroupCpuFiles(`4:cpu,cpuacct:/docker/x\n0::/docker/x`)).toEqual([
    '/sys/fs/cgroup/cpuacct/docker/x/cpuacct.usage',
    '/sys/fs/cgroup/cpu,cpuacct/docker/x/cpuacct.usage',
    '/sys/fs/cgroup/docker/x/cpu.stat',
    '/sys/fs/cgroup/unified/docker/x/cpu.stat',
  ]);
});
