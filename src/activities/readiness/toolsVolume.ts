import type Docker from 'dockerode';
import { recipeVolume } from '../../infra/recipeVolume';
import type { Settings } from '../../infra/settings';
import { TOOLS_DIR, toolsRecipe } from '../../readiness/images';

/** envgap's probe tools (pyright and its Node.js) as a volume, mounted read-only at TOOLS_DIR, so they never enter the environment they measure. */
export function toolsVolume(docker: Docker, settings: Settings, log?: (line: string) => void, prefix = 'envgap-tools'): Promise<string> {
  return recipeVolume(docker, settings, { image: 'tools', recipe: toolsRecipe, dir: TOOLS_DIR, prefix }, (line) => log?.(`[image tools] ${line}`));
}
