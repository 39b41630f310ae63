import { Context } from '@temporalio/activity';

/** Well under the workflows' heartbeat timeout (src/domain/activityTimeouts.ts), so one late beat is harmless. */
export const HEARTBEAT_INTERVAL_MS = 5_000;

/**
 * Runs `work` while heartbeating on a timer, whatever the work prints or how long one step takes:
 * liveness comes from the clock, not from the output. `details` (if given) is sent with each beat,
 * so the latest progress line shows in the pending activity of the Temporal UI and `study run`.
 */
export async function withHeartbeat<T>(work: () => Promise<T>, details?: () => unknown, intervalMs = HEARTBEAT_INTERVAL_MS): Promise<T> {
  const ctx = Context.current();
  // A local activity has no heartbeat: its workflow task's own timeout watches it.
  const beat = () => (ctx.info.isLocal ? undefined : ctx.heartbeat(details?.()));
  beat();
  const timer = setInterval(beat, intervalMs);
  try {
    return await work();
  } catch (err) {
    // Cancelled (or timed out and told so by the server): report the cancellation, not the fault it caused.
    if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason ?? err;
    throw err;
  } finally {
    clearInterval(timer);
  }
}
