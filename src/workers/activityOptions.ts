import { HEARTBEAT_THROTTLE_MS, heartbeatInterceptors } from '../activities/heartbeat';
import { DRAIN_GRACE_MS } from './drain';

/**
 * What every worker this project creates does for its activities: each beats from its first moment
 * (src/activities/heartbeat.ts), and a beat reaches the server within 10 s. A worker inside a CLI
 * command drains when it leaves (other studies may rely on it); `envgap worker` hands its activities
 * back at once when stopped, to be retried elsewhere.
 */
export function workerActivityOptions(role: 'cli' | 'worker' | undefined) {
  return {
    interceptors: { activity: [heartbeatInterceptors] },
    maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE_MS,
    ...(role === 'cli' ? { shutdownGraceTime: DRAIN_GRACE_MS } : {}),
  };
}
