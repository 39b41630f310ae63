import type Docker from 'dockerode';
import { removeContainerIfExists } from '../infra/docker';
import { SANDBOX_LABELS } from './names';

/**
 * Removes the sandboxes of an activity's earlier attempts (those whose labels match `match`, the
 * instance's and the role's or iteration's): Temporal has already given up on those (their heartbeats
 * stopped), so whatever they still do is wasted and their result would be refused. Called before the
 * new attempt waits for the machine, which the old one may still hold. A first attempt has none: no
 * Docker call on the common path.
 */
export async function removeEarlierAttempts(docker: Docker, match: Record<string, string>, attempt: number): Promise<void> {
  if (attempt <= 1) return;
  const found = await docker.listContainers({ all: true, filters: { label: Object.entries(match).map(([k, v]) => `${k}=${v}`) } });
  for (const c of found) {
    const earlier = Number(c.Labels[SANDBOX_LABELS.attempt] ?? 0);
    if (earlier < attempt) await removeContainerIfExists(docker, c.Id);
  }
}
