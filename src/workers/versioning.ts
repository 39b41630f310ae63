import type { WorkerDeploymentVersion } from '@temporalio/common';
import type { NativeConnection } from '@temporalio/worker';
import { workflowBuildId } from './bundle';

/** The worker deployment of envgap's workflow workers (Temporal worker deployment versioning). */
export const DEPLOYMENT_NAME = 'envgap';

export function deploymentVersion(): WorkerDeploymentVersion {
  return { deploymentName: DEPLOYMENT_NAME, buildId: workflowBuildId() };
}

/** Which build ids the deployment knows, and which is current; null where the deployment does not exist yet. */
async function describeDeployment(connection: NativeConnection, namespace: string): Promise<{ known: string[]; current: string | null } | null> {
  try {
    const r = await connection.workflowService.describeWorkerDeployment({ namespace, deploymentName: DEPLOYMENT_NAME });
    const info = r.workerDeploymentInfo;
    return { known: (info?.versionSummaries ?? []).map((v) => v.deploymentVersion?.buildId ?? '').filter(Boolean), current: info?.routingConfig?.currentDeploymentVersion?.buildId ?? null };
  } catch (err) {
    if ((err as { code?: number }).code === 5) return null; // NOT_FOUND
    throw err;
  }
}

/**
 * A new build becomes the current version, so that new studies start on it; studies already running
 * stay pinned to the build they started on. A build the deployment has seen before (an older worker
 * restarted) does not take over: going back is a decision for `temporal worker deployment
 * set-current-version`. The new build is made current before it polls (its queues are the ones the
 * current build polls, so none would be left unversioned).
 */
export async function promoteIfNew(connection: NativeConnection, namespace: string, version: WorkerDeploymentVersion, identity: string): Promise<'promoted' | 'current' | 'not current'> {
  const seen = await describeDeployment(connection, namespace);
  if (seen?.current === version.buildId) return 'current';
  if (seen && seen.known.includes(version.buildId) && seen.current !== null) return 'not current';
  await connection.workflowService.setWorkerDeploymentCurrentVersion({ namespace, deploymentName: version.deploymentName, buildId: version.buildId, allowNoPollers: true, ignoreMissingTaskQueues: true, identity });
  return 'promoted';
}
