import { ChildWorkflowFailure, executeChild, ParentClosePolicy, WorkflowIdReusePolicy, type Workflow } from '@temporalio/workflow';

/**
 * A protocol's study: each instance a child workflow (id = the instance's id, so a re-run finds it),
 * at most `concurrency` at a time. A child that fails outright counts as an error; the instance
 * workflows record their own harness errors and return a status.
 */
export async function runChildren<I extends { instanceId: string }>(
  instances: readonly I[],
  concurrency: number,
  child: (input: I) => Promise<{ status: 'completed' | 'error' }>,
): Promise<{ done: number; counts: { completed: number; error: number } }> {
  const counts = { completed: 0, error: 0 };
  let next = 0;
  const lane = async () => {
    while (next < instances.length) {
      const inst = instances[next++]!;
      try {
        const r = await executeChild(child as unknown as Workflow, {
          workflowId: inst.instanceId,
          args: [inst],
          parentClosePolicy: ParentClosePolicy.TERMINATE,
          workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
        });
        counts[(r as { status: 'completed' | 'error' }).status]++;
      } catch (err) {
        if (!(err instanceof ChildWorkflowFailure)) throw err;
        counts.error++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, instances.length)) }, lane));
  return { done: counts.completed + counts.error, counts };
}
