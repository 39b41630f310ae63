import type { Client } from '@temporalio/client';
import type Docker from 'dockerode';
import { LEGACY_READINESS_LABEL, SANDBOX_LABELS } from '../sandbox';
import { connectDocker, removeContainerIfExists } from '../infra/docker';
import { openTemporal } from './context';
import { say } from './say';
import { workflowStatus } from './workflowStatus';

/** The label every sandbox carries, of every protocol: the id of the instance (workflow) it works for. */
export const INSTANCE_LABEL = SANDBOX_LABELS.instance;

export interface CleanedContainer {
  /** The container's name, without Docker's leading "/". */
  name: string;
  instance: string;
  /** The instance workflow's status; null when the server has no such workflow. */
  workflow: string | null;
}

export interface CleanupResult {
  removed: CleanedContainer[];
  kept: CleanedContainer[];
  /** Frozen readiness environments (images) removed: their instance is not running. */
  removedImages: CleanedContainer[];
}

/**
 * Removes what a killed worker left behind: the sandboxes (label `envgap.instance`, every protocol;
 * `envgap.readiness` on readiness and Pass@1 containers from before the sandbox) whose instance
 * workflow is not running (closed, or unknown to the server), and the readiness protocol's frozen
 * environments (`envgap-frozen` images, which carry the session container's labels) of such instances.
 * What belongs to running instances is kept, since their activities (or retries) still use it. With
 * `study`, only that study's are looked at.
 */
export async function cleanupContainers(docker: Docker, client: Client, opts: { study?: string } = {}): Promise<CleanupResult> {
  const statuses = new Map<string, string | null>();
  const statusOf = async (instance: string) => {
    if (!statuses.has(instance)) statuses.set(instance, await workflowStatus(client, instance));
    return statuses.get(instance)!;
  };
  const mine = (instance: string | undefined): instance is string => instance !== undefined && (opts.study === undefined || instance.startsWith(`${opts.study}/`));
  const result: CleanupResult = { removed: [], kept: [], removedImages: [] };
  const seen = new Set<string>();
  for (const label of [INSTANCE_LABEL, LEGACY_READINESS_LABEL]) {
    for (const c of await docker.listContainers({ all: true, filters: { label: [label] } })) {
      const instance = c.Labels[label];
      if (!mine(instance) || seen.has(c.Id)) continue;
      seen.add(c.Id);
      const workflow = await statusOf(instance);
      const entry = { name: (c.Names[0] ?? c.Id).replace(/^\//, ''), instance, workflow };
      if (workflow === 'RUNNING') {
        result.kept.push(entry);
      } else {
        await removeContainerIfExists(docker, c.Id);
        result.removed.push(entry);
      }
    }
  }
  const frozen = [INSTANCE_LABEL, LEGACY_READINESS_LABEL].map((label) => docker.listImages({ filters: { label: [label], reference: ['envgap-frozen'] } }));
  const images = [...new Map((await Promise.all(frozen)).flat().map((i) => [i.Id, i])).values()];
  for (const image of images) {
    const instance = image.Labels?.[INSTANCE_LABEL] ?? image.Labels?.[LEGACY_READINESS_LABEL];
    if (!mine(instance)) continue;
    const workflow = await statusOf(instance);
    if (workflow === 'RUNNING') continue;
    await docker.getImage(image.Id).remove({ force: true }).catch((err: { statusCode?: number }) => {
      if (err.statusCode !== 404) throw err;
    });
    result.removedImages.push({ name: image.RepoTags?.[0] ?? image.Id, instance, workflow });
  }
  return result;
}

export async function cleanupCommand(opts: { study?: string }): Promise<void> {
  const t = await openTemporal();
  try {
    const r = await cleanupContainers(connectDocker(), t.client, opts);
    for (const c of r.removed) process.stdout.write(`removed ${c.name} (${c.instance}: ${c.workflow ?? 'no workflow'})\n`);
    for (const c of r.kept) process.stdout.write(`kept ${c.name} (${c.instance}: ${c.workflow})\n`);
    for (const c of r.removedImages) process.stdout.write(`removed image ${c.name} (${c.instance}: ${c.workflow ?? 'no workflow'})\n`);
    say(`cleanup: ${r.removed.length} container(s) and ${r.removedImages.length} frozen environment(s) removed, ${r.kept.length} kept (their instances are running)`);
  } finally {
    await t.connection.close();
  }
}
