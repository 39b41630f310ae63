import { WorkflowNotFoundError, type Client, type WorkflowHandle } from '@temporalio/client';

/** A workflow's description (its latest run), or null when there is none. */
export async function describeOrNull(handle: WorkflowHandle) {
  try {
    return await handle.describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}

/** The status of a workflow's latest run (RUNNING, COMPLETED, ...), or null when there is none. */
export async function workflowStatus(client: Client, workflowId: string): Promise<string | null> {
  return (await describeOrNull(client.workflow.getHandle(workflowId)))?.status.name ?? null;
}
