import type Docker from 'dockerode';
import { createHash } from 'node:crypto';
import { imageExists } from '../infra/docker';
import { buildFromFiles, ensureRecipeImage, type Progress } from '../infra/images';
import type { Settings } from '../infra/settings';
import { readinessRecipe } from '../readiness/images';

/** The interpreter of the device check's environment. */
export const TORCH_PYTHON = '/opt/venv/bin/python';

/**
 * An environment as an agent would leave it, for the probes to run in: envgap's readiness image (built
 * from Debian packages where no registry answers) with a venv holding torch from the package index
 * (PyPI's Linux torch carries its CUDA libraries). Built once per readiness image and requirement, and
 * kept: torch is a few GB.
 */
export async function ensureTorchImage(docker: Docker, settings: Settings, torch: string, progress: Progress): Promise<string> {
  const readiness = await ensureRecipeImage(docker, settings, 'readiness', readinessRecipe, progress);
  const dockerfile = `FROM ${readiness}
ARG PIP_INDEX_URL
RUN python3 -m venv /opt/venv && /opt/venv/bin/pip install --no-cache-dir '${torch.replace(/'/g, '')}'
`;
  const tag = `envgap/device-check-torch:${createHash('sha256').update(dockerfile).digest('hex').slice(0, 12)}`;
  if (await imageExists(docker, tag)) return tag;
  progress(`building ${tag}: ${torch} from the package index into /opt/venv (minutes, once)`);
  await buildFromFiles(docker, tag, { Dockerfile: dockerfile }, { 'envgap.image': 'device-check-torch' }, progress, settings.pipIndexUrl ? { PIP_INDEX_URL: settings.pipIndexUrl } : {});
  return tag;
}
