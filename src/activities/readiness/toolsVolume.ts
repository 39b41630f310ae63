import type Docker from 'dockerode';
import { removeContainerIfExists } from '../../infra/docker';
import { ensureRecipeImage } from '../../infra/images';
import type { Settings } from '../../infra/settings';
import { TOOLS_DIR, toolsRecipe } from '../../readiness/images';

const FILL_WAIT_MS = 10 * 60_000;
const exists = (docker: Docker, volume: string) => docker.getVolume(volume).inspect().then(() => true, () => false);
const statusOf = (err: unknown) => (err as { statusCode?: number }).statusCode;

/**
 * envgap's tools (pyright and its Node.js) as a volume filled from the tools image, once per image;
 * mounted read-only at TOOLS_DIR, so they never enter the environment they measure.
 *
 * Probes of several instances (and workers) may ask at once on a fresh machine. The filler
 * container's fixed name is the lock: whoever creates it fills the volume, the others wait. The
 * volume counts as filled only once a second, empty volume `<name>-ready` exists, created after the
 * copy finished, so no probe mounts a half-copied volume.
 */
export async function toolsVolume(docker: Docker, settings: Settings, log?: (line: string) => void, prefix = 'envgap-tools'): Promise<string> {
  const image = await ensureRecipeImage(docker, settings, 'tools', toolsRecipe, (line) => log?.(`[image tools] ${line}`));
  const name = `${prefix}-${image.split(':')[1]}`;
  const ready = `${name}-ready`;
  const filler = `${name}-fill`;
  const deadline = Date.now() + FILL_WAIT_MS;
  while (!(await exists(docker, ready))) {
    if (Date.now() > deadline) throw new Error(`the tools volume ${name} was not filled within ${FILL_WAIT_MS / 60_000} minutes (filler container ${filler})`);
    let c: Docker.Container;
    try {
      c = await docker.createContainer({ name: filler, Image: image, Cmd: ['sh', '-c', `cp -a ${TOOLS_DIR}/. /fill/`], HostConfig: { Binds: [`${name}:/fill`] } });
    } catch (err) {
      if (statusOf(err) !== 409) throw err;
      // Another probe is filling it; a filler that is no longer running died before it was done.
      const other = await docker.getContainer(filler).inspect().catch(() => null);
      const stale = other && !other.State.Running && (other.State.Status !== 'created' || Date.now() - Date.parse(other.Created) > 60_000);
      if (stale) await removeContainerIfExists(docker, filler);
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    try {
      await c.start();
      const { StatusCode } = (await c.wait()) as { StatusCode: number };
      if (StatusCode !== 0) throw new Error(`filling the tools volume ${name} failed (exit ${StatusCode})`);
      await docker.createVolume({ Name: ready, Labels: { 'envgap.tools': image } });
    } finally {
      await c.remove({ force: true }).catch(() => undefined);
    }
  }
  return name;
}
