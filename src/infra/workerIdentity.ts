import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export function workerIdentity(role: 'cli' | 'worker'): string {
  return `envgap-${role}-${process.pid}@${os.hostname()}`;
}

/**
 * A worker that drains (stops polling, lets its activities finish) still shows as a live poller: its
 * process is alive, and Temporal lists pollers for minutes. It marks itself here (src/workers/drain.ts),
 * so that other envgap commands on this host take it for gone at once.
 */
export function drainMarker(pid: number): string {
  return path.join(os.tmpdir(), 'envgap-draining', String(pid));
}

interface Timestamp {
  seconds?: { toNumber(): number } | number | null;
}

/**
 * Temporal lists a task queue's pollers for minutes after they last polled, so a worker that just
 * exited still shows. An envgap worker on this host is alive when its process is and it does not
 * drain; any other poller when it polled within the last long-poll interval.
 */
export function pollerAlive(identity: string, lastAccess: Timestamp | null | undefined, now = Date.now()): boolean {
  const m = /^envgap-(?:cli|worker)-(\d+)@(.+)$/.exec(identity);
  if (m && m[2] === os.hostname()) {
    if (fs.existsSync(drainMarker(Number(m[1])))) return false;
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
