import { useExecutionHarness } from '../helpers/execution';
import type { ProjectFiles } from '../../src/domain/files';
import type { ContainerLimits } from '../../src/domain/study';

// Real containers, the python runner through the executeProject activity: a run judged by its main
// process (a daemon left holding stdout does not make it a timeout), and failures at the container's
// limits classed by the limit they hit (the cgroup's counters), apart from ordinary runtime errors.
const h = useExecutionHarness();
const execute = (id: string, files: ProjectFiles, limits: Partial<ContainerLimits> = {}) => h.execute(id, 'python', files, limits);

const DAEMON = `import os, sys, time
print("starting", flush=True)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(300)  # a daemon that keeps stdout open
        os._exit(0)
    os._exit(0)
print("main done", flush=True)
`;

test('a program that exits 0 while a daemonized child holds stdout succeeds, not Timeout', async () => {
  const { outcome, log } = await execute('limits/replay/python/daemon/1', { 'main.py': DAEMON }, { run_timeout_s: 60 });
  expect(outcome).toMatchObject({ success: true, failedStep: null, errorClass: null, exitCode: 0 });
  // Not held until the time limit (60 s) by the daemon's open stdout.
  expect(outcome.durations.run).toBeLessThan(60_000);
  expect(log).toContain('main done');
  expect(log).not.toContain('<<envgap-exec');
}, 180000);

test('a daemon left running past the time limit by a main that never exits: Timeout, ended at the limit', async () => {
  const hang = DAEMON + 'time.sleep(300)\n';
  const { outcome } = await execute('limits/replay/python/hang/1', { 'main.py': hang }, { run_timeout_s: 5 });
  expect(outcome).toMatchObject({ success: false, failedStep: 'run', errorClass: 'Timeout' });
  // Ended at the limit (5 s), not when the daemon's sleep (300 s) ends.
  expect(outcome.durations.run).toBeLessThan(150_000);
}, 180000);

// A bounded fork bomb: forks until the pids limit refuses one, its children holding on.
const FORK_BOMB = `import os, time
n = 0
while True:
    pid = os.fork()
    if pid == 0:
        time.sleep(120)
        os._exit(0)
    n += 1
`;

test('a fork bomb at the pids limit (64) is PidsLimit, and Repair is told which limit', async () => {
  const { outcome, errorOutput } = await execute('limits/replay/python/forkbomb/1', { 'main.py': FORK_BOMB }, { pids: 64, run_timeout_s: 60 });
  expect(outcome).toMatchObject({ success: false, failedStep: 'run', errorClass: 'PidsLimit' });
  // Told apart at the limit, not at the time limit (60 s).
  expect(outcome.durations.run).toBeLessThan(60_000);
  expect(errorOutput).toContain("envgap: the program hit the container's process limit (64 processes and threads)");
}, 180000);

test('a 10 GB allocation with memory_mb 256 is MemoryLimit (Docker 20.10 on cgroup v1 says OOMKilled=false)', async () => {
  const { outcome, errorOutput } = await execute('limits/replay/python/alloc/1', { 'main.py': 'x = bytearray(10 * 1024 ** 3)\nprint(len(x))\n' }, { memory_mb: 256 });
  expect(outcome).toMatchObject({ success: false, failedStep: 'run', errorClass: 'MemoryLimit', exitCode: 137 });
  expect(errorOutput).toContain("envgap: the program hit the container's memory limit (256 MiB)");
}, 180000);

test('an ordinary exception is Runtime, with no limit named', async () => {
  const { outcome, errorOutput } = await execute('limits/replay/python/exception/1', { 'main.py': 'raise ValueError("bad input")\n' }, { memory_mb: 256, pids: 64 });
  expect(outcome).toMatchObject({ success: false, failedStep: 'run', errorClass: 'Runtime', exitCode: 1 });
  expect(errorOutput).toContain('ValueError: bad input');
  expect(errorOutput).not.toContain('envgap:');
}, 180000);
