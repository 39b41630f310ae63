import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../helpers/harness';

// scripts/lib.sh's guards for the daemons of deploy/local-cluster.sh: a port something already listens
// on is named before a daemon is started on it, and a daemon that exits is reported at once with its
// log, not waited on (a Web UI that could not bind its port once cost a whole CI run 60 s of waiting
// and a bare "did not come up").
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-lib-'));
const lib = (script: string) =>
  spawnSync('bash', ['-c', `source "${REPO_ROOT}/scripts/lib.sh"; ${script}`], { env: { ...process.env, ENVGAP_HOME: home, ENVGAP_STATE: path.join(home, 'state') }, encoding: 'utf8' });

afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

test('require_free_ports names a port that is taken, and passes once it is free', async () => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const taken = lib(`require_free_ports "the Web UI" 127.0.0.1:${port}`);
  expect(taken.status).toBe(1);
  expect(taken.stderr).toContain(`the Web UI: port ${port} is taken (127.0.0.1:${port}`);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const free = lib(`require_free_ports "the Web UI" 127.0.0.1:${port}`);
  expect(free).toMatchObject({ status: 0, stderr: '' });
});

test('wait_for_daemon fails as soon as the daemon exits, with the end of its log', () => {
  const log = path.join(home, 'exits.log');
  // The check never succeeds: only the daemon's exit can end the wait before its 600 s.
  const r = lib(`daemon "${log}" bash -c 'echo "listen tcp 127.0.0.1:28233: bind: address already in use"; exit 1'; echo $! > "${home}/exits.pid"
    wait_for_daemon "the Web UI" "${home}/exits.pid" "${log}" 600 false`);
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(`the Web UI exited before it came up; the end of ${log}:`);
  expect(r.stderr).toContain('bind: address already in use');
});

test('wait_for_daemon returns once the check passes while the daemon runs', () => {
  const ready = path.join(home, 'ready');
  const r = lib(`daemon "${home}/runs.log" bash -c 'sleep 1; touch "${ready}"; sleep 600'; echo $! > "${home}/runs.pid"
    wait_for_daemon "the server" "${home}/runs.pid" "${home}/runs.log" 600 test -f "${ready}"; s=$?; kill "$(cat "${home}/runs.pid")"; exit $s`);
  expect(r).toMatchObject({ status: 0, stderr: '' });
});
