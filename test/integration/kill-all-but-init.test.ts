import type Docker from 'dockerode';
import { connectDocker, removeContainerIfExists } from '../../src/infra/docker';
import { ensureRuntimeImage } from '../../src/infra/images';
import { loadSettings } from '../../src/infra/settings';
import { killAllButInit } from '../../src/sandbox/processes';
import { waitFor } from '../helpers/waitFor';

// The disk guard's way to stop a program at the limit: every process of the container but its init and
// the `sleep infinity` keeper is killed, in a paused container; and, where the freezer refuses (it did,
// "unable to freeze", for a writer on a full disk of a loaded machine), without the pause, checking
// each pid's cgroup. A real container each; only the refusal of `pause` is staged.
const docker = connectDocker();
const settings = loadSettings();
let image: string;

beforeAll(async () => {
  image = await ensureRuntimeImage(docker, settings, 'python', () => undefined);
}, 600000);

async function busyContainer(name: string): Promise<{ container: Docker.Container; initPid: number }> {
  await removeContainerIfExists(docker, name);
  const container = await docker.createContainer({ name, Image: image, Cmd: ['sleep', 'infinity'], NetworkDisabled: true, HostConfig: { Init: true, AutoRemove: false } });
  await container.start();
  // Three processes to kill: a shell and its two children, one of which ignores SIGTERM.
  const exec = await container.exec({ Cmd: ['sh', '-c', "trap '' TERM; sleep 1001 & sleep 1002 & wait"], AttachStdout: false, AttachStderr: false });
  await exec.start({ Detach: true });
  const initPid = (await container.inspect()).State!.Pid!;
  return { container, initPid };
}

async function commands(container: Docker.Container): Promise<string[]> {
  const top = (await container.top()) as { Titles: string[]; Processes: string[][] };
  return top.Processes.map((p) => p[top.Titles.indexOf('CMD')]!).sort();
}

test.each([
  ['the freezer works', false],
  ['the freezer refuses', true],
])('%s: every process but init and the keeper is killed, and the container stays up', async (_label, refuse) => {
  const name = `envgap-test-killall-${refuse ? 'unfrozen' : 'frozen'}-${process.pid}`;
  const { container, initPid } = await busyContainer(name);
  try {
    await waitFor('the shell and its two sleeps to be listed', async () => (await commands(container)).some((c) => c.includes('sleep 1002')));
    const target = refuse
      ? (Object.assign(Object.create(container), {
          pause: () => Promise.reject(new Error(`(HTTP code 500) server error - Cannot pause container ${container.id}: OCI runtime pause failed: unable to freeze: unknown`)),
        }) as Docker.Container)
      : container;
    expect(await killAllButInit(target, initPid)).toBe(3);
    let left: string[] = [];
    await waitFor('only init and the keeper to be left', async () => (left = await commands(container)).length === 2);
    expect(left).toEqual(expect.arrayContaining(['sleep infinity']));
    expect(left.join('\n')).not.toMatch(/sleep 100[12]|sh -c/);
    expect((await container.inspect()).State).toMatchObject({ Running: true, Paused: false });
  } finally {
    await removeContainerIfExists(docker, name);
  }
}, 120000);
