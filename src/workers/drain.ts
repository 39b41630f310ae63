import * as fs from 'node:fs';
import * as path from 'node:path';
import { inFlightActivities } from '../activities/heartbeat';
import { drainMarker } from '../infra/workerIdentity';

/**
 * A worker inside a CLI command that leaves (its own study ended) drains: it stops polling and lets
 * the activities it runs (other studies' too) finish. The SDK cancels what is still running after the
 * shutdown grace time; each activity is bounded by its own start-to-close timeout anyway (past it, its
 * next beat is refused and it is cancelled), so the grace time only backs that up.
 */
export const DRAIN_GRACE_MS = 7 * 24 * 3600 * 1000;

/** How often a draining worker says again what it waits for. */
const DRAIN_REPORT_MS = 30_000;

/** Marks this process as draining; the returned function (also run at exit) removes the mark. */
export function markDraining(): () => void {
  const file = drainMarker(process.pid);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${new Date().toISOString()}\n`);
  const unmark = () => fs.rmSync(file, { force: true });
  process.once('exit', unmark);
  return unmark;
}

/** A mark an earlier process with this pid left (pids are reused): this one polls. */
export function clearStaleDrainMark(): void {
  fs.rmSync(drainMarker(process.pid), { force: true });
}

export interface InFlight {
  type: string;
  workflowId: string | null;
  startedMs: number;
  timeoutMs: number;
}

function minutes(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 120 ? `${s} s` : `${Math.round(s / 60)} min`;
}

/** What a draining worker says it waits for; null when nothing runs. Pure. */
export function drainLine(running: InFlight[], nowMs: number): string | null {
  if (running.length === 0) return null;
  const shown = running.slice(0, 3).map((a) => `${a.type}${a.workflowId ? ` of ${a.workflowId}` : ''} (running ${minutes(nowMs - a.startedMs)})`);
  const more = running.length > 3 ? ` and ${running.length - 3} more` : '';
  const latest = Math.max(...running.map((a) => a.startedMs + a.timeoutMs));
  return (
    `this command's worker stopped polling and waits for ${running.length} activit${running.length === 1 ? 'y' : 'ies'} it runs to finish (other studies may rely on them): ` +
    `${shown.join(', ')}${more}; at most ${minutes(latest - nowMs)} (their time limits). Ctrl-C leaves now: another worker retries them after their heartbeat timeout`
  );
}

/**
 * Shuts a worker down as a drain: marks the process, stops polling, says what it waits for (at once
 * and every 30 s), and resolves when the worker's run has ended.
 */
export async function drain(shutdown: () => void, running: Promise<unknown>, log?: (line: string) => void): Promise<void> {
  const unmark = markDraining();
  shutdown();
  let done = false;
  const say = () => {
    const line = done ? null : drainLine(inFlightActivities(), Date.now());
    if (line) log?.(line);
  };
  say();
  const timer = setInterval(say, DRAIN_REPORT_MS);
  try {
    await running;
  } finally {
    done = true;
    clearInterval(timer);
    unmark();
  }
}
