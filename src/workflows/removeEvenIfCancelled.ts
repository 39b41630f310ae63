import { CancellationScope, patched } from '@temporalio/workflow';

/** Instances before it left an agent's session container to `envgap cleanup` when they were cancelled. */
const REMOVE_ON_CANCEL = 'session-removed-on-cancel';

/**
 * Removes what an instance left (its session container, its frozen image), also when the instance is
 * being cancelled: in a scope of its own that the cancellation does not reach.
 */
export async function removeEvenIfCancelled(remove: () => Promise<void>): Promise<void> {
  if (patched(REMOVE_ON_CANCEL)) await CancellationScope.nonCancellable(remove);
  else await remove();
}
