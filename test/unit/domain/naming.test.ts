import { containerName } from '../../../src/activities/containerSession';
import { formatTable } from '../../../src/text/table';
import { pollerAlive, workerIdentity } from '../../../src/workers/identity';

test('container names are deterministic, Docker-safe and distinct per instance and iteration', () => {
  const a = containerName('s/agent/python/p_01/1', 0);
  expect(containerName('s/agent/python/p_01/1', 0)).toBe(a);
  expect(a).toMatch(/^[a-zA-Z0-9][a-zA-Z0-9_.-]+$/);
  expect(containerName('s/agent/python/p_01/1', 1)).not.toBe(a);
  expect(containerName('s/agent/python/p_01/2', 0)).not.toBe(a);
  expect(containerName('s/a b/python/p_01/1', 0)).not.toBe(containerName('s/a.b/python/p_01/1', 0));
});

test('a local envgap worker is alive exactly when its process is', () => {
  expect(pollerAlive(workerIdentity('cli'), null)).toBe(true);
  const dead = workerIdentity('worker').replace(/-\d+@/, '-999999999@');
  expect(pollerAlive(dead, { seconds: Date.now() / 1000 })).toBe(false);
});

test('another poller counts as alive when it polled within 90 s', () => {
  const now = 1_000_000_000_000;
  expect(pollerAlive('someone@elsewhere', { seconds: now / 1000 - 30 }, now)).toBe(true);
  expect(pollerAlive('someone@elsewhere', { seconds: now / 1000 - 300 }, now)).toBe(false);
  expect(pollerAlive('someone@elsewhere', null, now)).toBe(false);
});

test('tables pad columns and show null as "-"', () => {
  expect(formatTable(['a', 'bb'], [['xyz', null], [1, 'q']])).toBe('a    bb\n---  --\nxyz  -\n1    q');
});
