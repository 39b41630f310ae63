import * as os from 'node:os';

export function workerIdentity(role: 'cli' | 'worker'): string {
  return `envgap-${role}-${process.pid}@${os.hostname()}`;
}

interface Timestamp {
  seconds?: { toNumber(): number } | number | null;
}

/**
 * Temporal lists a task queue's pollers for minutes after they last polled, so a worker that just
 * exited still shows. An envgap worker on this host is alive when its process is; any other poller
 * when it polled within the last long-poll interval.
 */
export function pollerAlive(identity: string, lastAccess: Timestamp | null | undefined, now = Date.now()): boolean {
  const m = /^envgap-(?:cli|worker)-(\d+)@(.+)$/.exec(identity);
  if (m && m[2] === os.hostname()) {
    try {
      process.kill(Number(m[1]), 0);
      return true;
    } catch {
      return false;
    }
  }
  const s = lastAccess?.seconds;
  const seconds = typeof s === 'number' ? s : s ? s.toNumber() : 0;
  return now / 1000 - seconds < 90;
}
