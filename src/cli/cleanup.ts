import type { Client } from '@temporalio/client';
import type Docker from 'dockerode';
import { CONTAINER_LABELS } from '../activities/containerSession';
import { connectDocker, removeContainerIfExists } from '../infra/docker';
import { openTemporal } from './context';
import { say } from './say';
import { workflowStatus } from './workflowStatus';

/** The label every execution container carries: the id of the instance (workflow) it runs for. */
export const INSTANCE_LABEL = CONTAINER_LABELS.instance;

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
}

/**
 * Removes the containers labelled `envgap.instance` whose instance workflow is not running (closed,
 * or unknown to the server): what a killed worker left behind. Containers of running instances are
 * kept, since their activity (or its retry) still uses them. With `study`, only that study's
 * containers are looked at.
 */
export async function cleanupContainers(docker: Docker, client: Client, opts: { study?: string } = {}): Promise<CleanupResult> {
  const containers = await docker.listContainers({ all: true, filters: { label: [INSTANCE_LABEL] } });
  const statuses = new Map<string, string | null>();
  const result: CleanupResult = { removed: [], kept: [] };
  for (const c of containers) {
    const instance = c.Labels[INSTANCE_LABEL];
    if (opts.study !== undefined && !instance.startsWith(`${opts.study}/`)) continue;
    if (!statuses.has(instance)) statuses.set(instance, await workflowStatus(client, instance));
    const workflow = statuses.get(instance)!;
    const entry = { name: (c.Names[0] ?? c.Id).replace(/^\//, ''), instance, workflow };
    if (workflow === 'RUNNING') {
      result.kept.push(entry);
    } else {
      await removeContainerIfExists(docker, c.Id);
      result.removed.push(entry);
    }
  }
  return result;
}

export async function cleanupCommand(opts: { study?: string }): Promise<void> {
  const t = await openTemporal();
  try {
    const r = await cleanupContainers(connectDocker(), t.client, opts);
    for (const c of r.removed) process.stdout.write(`removed ${c.name} (${c.instance}: ${c.workflow ?? 'no workflow'})\n`);
    for (const c of r.kept) process.stdout.write(`kept ${c.name} (${c.instance}: ${c.workflow})\n`);
    say(`cleanup: ${r.removed.length} container(s) removed, ${r.kept.length} kept (their instances are running)`);
  } finally {
    await t.connection.close();
  }
}
