import type Docker from 'dockerode';
import { removeContainerIfExists } from '../../infra/docker';
import { ensureRecipeImage } from '../../infra/images';
import type { Settings } from '../../infra/settings';
import { TOOLS_DIR, toolsRecipe } from '../../readiness/images';

/**
 * envgap's tools (pyright and its Node.js) as a volume filled from the tools image, once per image;
 * mounted read-only at TOOLS_DIR, so they never enter the environment they measure.
 */
export async function toolsVolume(docker: Docker, settings: Settings, log?: (line: string) => void): Promise<string> {
  const image = await ensureRecipeImage(docker, settings, 'tools', toolsRecipe, (line) => log?.(`[image tools] ${line}`));
  const name = `envgap-tools-${image.split(':')[1]}`;
  try {
    await docker.getVolume(name).inspect();
    return name;
  } catch {
    // Docker copies the image's files into an empty named volume the first time it is mounted.
    await docker.createVolume({ Name: name, Labels: { 'envgap.tools': image } });
    const filler = `${name}-fill`;
    await removeContainerIfExists(docker, filler);
    const c = await docker.createContainer({ name: filler, Image: image, Cmd: ['true'], HostConfig: { Binds: [`${name}:${TOOLS_DIR}`] } });
    await c.start();
    await c.wait();
    await c.remove({ force: true });
    return name;
  }
}
