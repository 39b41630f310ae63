import { proxyActivities } from '@temporalio/workflow';

/** The benchmark's own activity: it only waits. */
export interface FloorActivities {
  waitFor(ms: number): Promise<void>;
}

const { waitFor } = proxyActivities<FloorActivities>({ startToCloseTimeout: '1 minute' });

/**
 * Temporal's floor (src/bench/instances.ts): a workflow that runs one activity and ends, what any
 * harness on Temporal pays for an instance whatever it does. Not one of envgap's workflows.
 */
export async function floorWorkflow(ms: number): Promise<void> {
  await waitFor(ms);
}
