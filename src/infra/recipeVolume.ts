import type Docker from 'dockerode';
import { removeContainerIfExists } from './docker';
import { ensureRecipeImage, type Progress } from './images';
import type { Settings } from './settings';

const FILL_WAIT_MS = 10 * 60_000;
const exists = (docker: Docker, volume: string) => docker.getVolume(volume).inspect().then(() => true, () => false);
const statusOf = (err: unknown) => (err as { statusCode?: number }).statusCode;

export interface RecipeVolume {
  /** The image's name (`envgap/<name>:<hash>`). */
  image: string;
  recipe: (base: string) => string;
  /** The folder of the image the volume holds (mounted read-only at the same path). */
  dir: string;
  /** The volume's name before the image's hash. */
  prefix: string;
}

/**
 * A folder of an image of envgap's own, as a volume filled from it once per image (the probes' tools,
 * an agent's CLI and its Node.js); mounted read-only, so nothing in it enters what it is mounted into.
 *
 * Several activities (and workers) may ask at once on a fresh machine. The filler container's fixed
 * name is the lock: whoever creates it fills the volume, the others wait. The volume counts as filled
 * only once a second, empty volume `<name>-ready` exists, created after the copy finished, so nothing
 * mounts a half-copied volume.
 */
export async function recipeVolume(docker: Docker, settings: Settings, v: RecipeVolume, progress: Progress = () => undefined): Promise<string> {
  const image = await ensureRecipeImage(docker, settings, v.image, v.recipe, progress);
  const name = `${v.prefix}-${image.split(':')[1]}`;
  const ready = `${name}-ready`;
  const filler = `${name}-fill`;
  const deadline = Date.now() + FILL_WAIT_MS;
  while (!(await exists(docker, ready))) {
    if (Date.now() > deadline) throw new Error(`the volume ${name} was not filled within ${FILL_WAIT_MS / 60_000} minutes (filler container ${filler})`);
    let c: Docker.Container;
    try {
      c = await docker.createContainer({ name: filler, Image: image, Cmd: ['sh', '-c', `cp -a ${v.dir}/. /fill/`], HostConfig: { Binds: [`${name}:/fill`] } });
    } catch (err) {
      if (statusOf(err) !== 409) throw err;
      // Another activity is filling it; a filler that is no longer running died before it was done.
      const other = await docker.getContainer(filler).inspect().catch(() => null);
      const stale = other && !other.State.Running && (other.State.Status !== 'created' || Date.now() - Date.parse(other.Created) > 60_000);
      if (stale) await removeContainerIfExists(docker, filler);
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    try {
      await c.start();
      const { StatusCode } = (await c.wait()) as { StatusCode: number };
      if (StatusCode !== 0) throw new Error(`filling the volume ${name} failed (exit ${StatusCode})`);
      await docker.createVolume({ Name: ready, Labels: { 'envgap.tools': image } });
    } finally {
      await c.remove({ force: true }).catch(() => undefined);
    }
  }
  return name;
}
