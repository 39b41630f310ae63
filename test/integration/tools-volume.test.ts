import { execFileSync } from 'node:child_process';
import { toolsVolume } from '../../src/activities/readiness/toolsVolume';
import { connectDocker } from '../../src/infra/docker';
import { loadSettings } from '../../src/infra/settings';

// The tools volume on a fresh machine, asked for by several probes at once: one fills it, the others
// wait for it to be complete, and every one gets a volume that holds pyright.
const docker = connectDocker();
const prefix = `envgap-tools-test-${process.pid}`;

afterAll(async () => {
  for (const v of (await docker.listVolumes()).Volumes ?? []) if (v.Name.startsWith(prefix)) await docker.getVolume(v.Name).remove().catch(() => undefined);
});

test('concurrent callers share one fill, and none gets a half-copied volume', async () => {
  const names = await Promise.all([1, 2, 3].map(() => toolsVolume(docker, loadSettings(), undefined, prefix)));
  expect(new Set(names).size).toBe(1);
  const name = names[0]!;
  await expect(docker.getVolume(`${name}-ready`).inspect()).resolves.toBeTruthy();
  const listed = execFileSync('docker', ['run', '--rm', '-v', `${name}:/opt/envgap-tools:ro`, (await docker.getVolume(`${name}-ready`).inspect()).Labels['envgap.tools']!, 'sh', '-c', 'ls /opt/envgap-tools/pyright/node_modules/pyright/index.js && /opt/envgap-tools/node/bin/node --version'], { encoding: 'utf8' });
  expect(listed).toMatch(/index\.js\nv20\./);
  // Once filled, a caller does not fill again.
  const again = await toolsVolume(docker, loadSettings(), undefined, prefix);
  expect(again).toBe(name);
}, 600000);
