import { listeningPorts, parseProbe, ServiceWatch } from '../../src/activities/runners/serviceWatch';
import { parseStraceOpenedFiles } from '../../src/ecosystems/strace';

// What /proc/net/tcp and /proc/net/tcp6 show in a container running `python -m http.server 8000`
// with one connection open, and a node server on [::]:3000.
const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000:1F40 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1009917 1 00000000dd7c13be 100 0 0 10 0
   1: 0100007F:1F40 0100007F:D2F4 01 00000000:00000000 00:00000000 00000000     0        0 1009918 1 00000000dd7c13bf 20 4 30 10 -1
   2: 0100007F:D2F4 0100007F:1F40 06 00000000:00000000 03:00001770 00000000     0        0 0 3 0000000000000000
`;
const TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000000000000:0BB8 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1010000 1 0000000000000000 100 0 0 10 0
`;

test('LISTEN sockets (state 0A) of both tables, by local port; established and time-wait ones are not', () => {
  expect(listeningPorts(TCP)).toEqual([8000]);
  expect(listeningPorts(TCP6)).toEqual([3000]);
  expect(listeningPorts(TCP + TCP6)).toEqual([3000, 8000]);
  expect(listeningPorts(TCP.split('\n').filter((l) => !l.includes(' 0A ')).join('\n'))).toEqual([]);
  expect(listeningPorts('')).toEqual([]);
});

test("Docker's embedded DNS server (127.0.0.11) and sockets listening before the run are not the program's", () => {
  const dns = '   0: 0B00007F:9D2D 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1120958 1 0000000099e92c45 100 0 0 10 0\n';
  expect(listeningPorts(dns)).toEqual([]);
  expect(listeningPorts(TCP + TCP6, new Set(['1009917']))).toEqual([3000]);
});

test('the probe: sockets, then the cgroup CPU time of v1 (ns) or v2 (usage_usec)', () => {
  expect(parseProbe(`${TCP}${TCP6}<<envgap-cpu>>\n39210821\n`)).toEqual({ ports: [3000, 8000], cpuNs: 39210821 });
  expect(parseProbe(`${TCP}<<envgap-cpu>>\nusage_usec 1500\n`)).toEqual({ ports: [8000], cpuNs: 1500000 });
  expect(parseProbe(`<<envgap-cpu>>\n`)).toEqual({ ports: [], cpuNs: null });
});

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A probe answering `answer(n)` at its n-th call, and `looked(n)`: resolved once the n-th look's reading is taken. */
function countingProbe(answer: (n: number) => Promise<string>) {
  let calls = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  const probe = async () => {
    calls++;
    const n = calls;
    try {
      return await answer(n);
    } finally {
      // The watch takes its reading when the probe's answer is back: the waiters go a turn later.
      setImmediate(() => {
        for (const w of waiters.filter((x) => x.n <= n)) w.resolve();
      });
    }
  };
  const looked = (n: number) => new Promise<void>((resolve) => (calls >= n ? setImmediate(resolve) : waiters.push({ n, resolve })));
  return { probe, looked, calls: () => calls };
}

test('a watch that sees a port: listening, no timeout kind; looks stop once seen', async () => {
  const p = countingProbe(async () => `${TCP}<<envgap-cpu>>\n1\n`);
  const w = new ServiceWatch(p.probe, 50);
  w.start(0.5, 10);
  await p.looked(1);
  // Room for more looks had the watch kept looking (it must not): any delay only makes this stricter.
  await wait(300);
  const r = await w.stop();
  expect(r.ports).toEqual([8000]);
  expect(r.timeoutKind).toBeNull();
  expect(p.calls()).toBe(1);
  expect(r.looks).toBe(1);
});

test('no port: silent without output and CPU, busy with CPU, busy with output between the looks', async () => {
  const run = async (cpu: 'none' | 'all', print: boolean) => {
    const t0 = Date.now();
    // The container's CPU time: none, or all of the time that passed (a busy loop), whatever the looks' spacing.
    const p = countingProbe(async () => `<<envgap-cpu>>\n${cpu === 'all' ? Math.max(1, (Date.now() - t0) * 1e6) : 1000}\n`);
    const w = new ServiceWatch(p.probe, 100);
    w.start(0.5, 10);
    await p.looked(1);
    if (print) w.output();
    await p.looked(2);
    return w.stop();
  };
  expect((await run('none', false)).timeoutKind).toBe('silent');
  expect((await run('all', false)).timeoutKind).toBe('busy');
  expect((await run('none', true)).timeoutKind).toBe('busy');
});

test('a probe that fails is no reading; a run that ended before the first look has no timeout kind', async () => {
  const p = countingProbe(async () => {
    throw new Error('container gone');
  });
  const failing = new ServiceWatch(p.probe, 50);
  failing.start(0.5, 10);
  await p.looked(2);
  expect(await failing.stop()).toEqual({ ports: [], looks: 0, timeoutKind: null });
  const early = new ServiceWatch(async () => `${TCP}<<envgap-cpu>>\n1\n`);
  early.start(5, 10);
  expect(await early.stop()).toEqual({ ports: [], looks: 0, timeoutKind: null });
});

test('a run trace cut mid-line where strace was stopped at the time limit: the complete lines count, the cut one does not', () => {
  const trace = '19    openat(AT_FDCWD, "/usr/lib/python3.12/http/server.py", O_RDONLY|O_CLOEXEC) = 3\n19    openat(AT_FDCWD, "/usr/lib/python3.12/ht';
  expect(parseStraceOpenedFiles(trace)).toEqual(['/usr/lib/python3.12/http/server.py']);
});
