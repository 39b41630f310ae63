import { proxyActivities } from '@temporalio/workflow';

/** The workflows of test/workflows/heartbeat.test.ts (bundled from this file): one activity each, with the timeouts the test gives. */
export interface HeartbeatTestActivities {
  /** Calls nothing (no heartbeat of its own) until the server has seen beats spanning `spanMs`; returns its attempt. */
  silentUntilBeaten(spanMs: number): Promise<number>;
  /** Waits for the test's gate; returns its attempt. */
  gated(): Promise<number>;
}

export async function silentActivityWorkflow(opts: { heartbeatTimeoutMs: number; spanMs: number; maximumAttempts: number }): Promise<number> {
  const { silentUntilBeaten } = proxyActivities<HeartbeatTestActivities>({
    startToCloseTimeout: '2 minutes',
    heartbeatTimeout: opts.heartbeatTimeoutMs,
    retry: { maximumAttempts: opts.maximumAttempts, initialInterval: '100ms' },
  });
  return silentUntilBeaten(opts.spanMs);
}

export async function gatedActivityWorkflow(opts: { heartbeatTimeoutMs: number }): Promise<number> {
  const { gated } = proxyActivities<HeartbeatTestActivities>({ startToCloseTimeout: '2 minutes', heartbeatTimeout: opts.heartbeatTimeoutMs, retry: { initialInterval: '100ms' } });
  return gated();
}
