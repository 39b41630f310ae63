import { Context } from '@temporalio/activity';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';

/** Well under the workflows' heartbeat timeout (src/domain/activityTimeouts.ts), so one late beat is harmless. */
export const HEARTBEAT_INTERVAL_MS = 5_000;

/**
 * The longest the worker holds a beat back before sending it (the SDK's default is 0.8 of the
 * heartbeat timeout: 24 s of 30, which left 6 s for a loaded machine to deliver it).
 */
export const HEARTBEAT_THROTTLE_MS = 2 * HEARTBEAT_INTERVAL_MS;

/** How often an activity beats: every 5 s, or three times per heartbeat timeout where that is shorter. */
export function beatIntervalMs(heartbeatTimeoutMs: number | undefined, maxMs = HEARTBEAT_INTERVAL_MS): number {
  if (!heartbeatTimeoutMs || heartbeatTimeoutMs <= 0) return maxMs;
  return Math.max(10, Math.min(maxMs, Math.floor(heartbeatTimeoutMs / 3)));
}

/** One activity being run: what its beats carry, and what the worker says of it while it drains. */
interface Beating {
  details?: () => unknown;
  beat(): void;
  readonly type: string;
  readonly workflowId: string | null;
  readonly startedMs: number;
  readonly timeoutMs: number;
}

const beating = new Map<Context, Beating>();

/** The activities this process runs now, for a worker that waits for them before it leaves. */
export function inFlightActivities(): Array<Pick<Beating, 'type' | 'workflowId' | 'startedMs' | 'timeoutMs'>> {
  return [...beating.values()].map(({ type, workflowId, startedMs, timeoutMs }) => ({ type, workflowId, startedMs, timeoutMs }));
}

/** A cancelled (or timed out and told so) activity reports the cancellation, not the fault it caused. */
function cancellationOr(ctx: Context, err: unknown): unknown {
  return ctx.cancellationSignal.aborted ? (ctx.cancellationSignal.reason ?? err) : err;
}

/**
 * Runs an activity's whole code beating on one timer: liveness comes from the clock, from the first
 * moment the code runs, whatever it waits on (the database, the machine budget, an agent), not from
 * its output. A local activity has no heartbeat: its workflow task's own timeout watches it.
 */
async function beatWhile<T>(ctx: Context, work: () => Promise<T>, details?: () => unknown): Promise<T> {
  const info = ctx.info;
  const state: Beating = {
    details,
    beat: () => {
      if (!info.isLocal) ctx.heartbeat(state.details?.());
    },
    type: info.activityType,
    workflowId: info.workflowExecution?.workflowId ?? null,
    startedMs: Date.now(),
    timeoutMs: info.startToCloseTimeoutMs,
  };
  beating.set(ctx, state);
  state.beat();
  const timer = info.isLocal ? null : setInterval(state.beat, beatIntervalMs(info.heartbeatTimeoutMs));
  try {
    return await work();
  } catch (err) {
    throw cancellationOr(ctx, err);
  } finally {
    if (timer) clearInterval(timer);
    beating.delete(ctx);
  }
}

/**
 * The worker's activity interceptor (every worker this project creates registers it): each activity
 * beats from its first moment to its end, and an abort is reported as the cancellation.
 */
export const heartbeatInterceptors: ActivityInterceptorsFactory = (ctx) => ({
  inbound: { execute: (input, next) => beatWhile(ctx, () => next(input)) },
});

/**
 * Adds progress to the activity's beats while `work` runs: `details` (if given) is sent with each beat,
 * so the latest progress line shows in the pending activity of the Temporal UI and `study run`. The
 * beating itself is the worker's (heartbeatInterceptors); where no interceptor runs the activity (a
 * worker made elsewhere, MockActivityEnvironment), this beats on its own timer instead, once.
 */
export async function withHeartbeat<T>(work: () => Promise<T>, details?: () => unknown): Promise<T> {
  const ctx = Context.current();
  const state = beating.get(ctx);
  if (!state) return beatWhile(ctx, work, details);
  const outer = state.details;
  if (details) {
    state.details = details;
    state.beat();
  }
  try {
    return await work();
  } catch (err) {
    throw cancellationOr(ctx, err);
  } finally {
    state.details = outer;
  }
}
