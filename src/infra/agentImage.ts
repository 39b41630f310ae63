import type Docker from 'dockerode';
import { createHash } from 'node:crypto';
import { imageExists } from './docker';
import { buildFromFiles } from './images';

/** The readiness image with the agent installed: one image per (readiness image, install command). */
export function agentImageTag(baseImage: string, install: string): string {
  return `envgap/readiness-agent:${createHash('sha256').update(`${baseImage}\0${install}`).digest('hex').slice(0, 12)}`;
}

/** Builds the agent's image once: the readiness image plus the spec's install command (with the package indexes). */
export async function ensureAgentImage(docker: Docker, baseImage: string, install: string, log?: (line: string) => void): Promise<string> {
  const tag = agentImageTag(baseImage, install);
  if (await imageExists(docker, tag)) return tag;
  log?.(`building ${tag}: ${install}`);
  // As a script, so that a command of several lines (a heredoc) runs as written.
  const dockerfile = `FROM ${baseImage}\nCOPY install.sh /tmp/envgap-install.sh\nRUN bash -e /tmp/envgap-install.sh && rm /tmp/envgap-install.sh\n`;
  try {
    await buildFromFiles(docker, tag, { Dockerfile: dockerfile, 'install.sh': install }, { 'envgap.image': 'readiness-agent' }, (line) => log?.(line));
  } catch (err) {
    throw new Error(`the agent's install command failed: ${(err as Error).message}`);
  }
  return tag;
}
