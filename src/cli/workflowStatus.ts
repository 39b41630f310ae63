import { WorkflowNotFoundError, type Client } from '@temporalio/client';

/** The status of a workflow's latest run (RUNNING, COMPLETED, ...), or null when there is none. */
export async function workflowStatus(client: Client, workflowId: string): Promise<string | null> {
  try {
    return (await client.workflow.getHandle(workflowId).describe()).status.name;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}
