import { sandboxName } from '../../../src/sandbox';
import { formatTable } from '../../../src/text/table';
import { pollerAlive, workerIdentity } from '../../../src/infra/workerIdentity';

test('sandbox names are deterministic, Docker-safe and distinct per instance, role (an iteration) and attempt', () => {
  const a = sandboxName('s/agent/python/p_01/1', 'i0');
  expect(sandboxName('s/agent/python/p_01/1', 'i0')).toBe(a);
  expect(a).toMatch(/^[a-zA-Z0-9][a-zA-Z0-9_.-]+$/);
  // The environment gap protocol's names are those its Execute containers always had.
  expect(a).toMatch(/^envgap-s\.agent\.python\.p_01\.1-[0-9a-f]{8}-i0-a1$/);
  expect(sandboxName('s/agent/python/p_01/1', 'i1')).not.toBe(a);
  expect(sandboxName('s/agent/python/p_01/1', 'i0', 2)).not.toBe(a);
  expect(sandboxName('s/agent/python/p_01/1', 'session')).not.toBe(a);
  expect(sandboxName('s/agent/python/p_01/2', 'i0')).not.toBe(a);
  expect(sandboxName('s/a b/python/p_01/1', 'i0')).not.toBe(sandboxName('s/a.b/python/p_01/1', 'i0'));
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
