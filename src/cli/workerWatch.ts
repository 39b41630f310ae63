import type { RunningWorker } from '../workers/cpuWorker';
import { activityPollers, startInProcessWorker, workflowPollers, type CliContext } from './context';
import { QUEUES } from '../workers/queues';
import { say } from './say';

/**
 * While `study run` waits for its study, it watches the cpu task queue's pollers: a study is never
 * left without a worker and silent. When the worker it relied on goes (another command's in-process
 * worker whose study ended, an `envgap worker` stopped), it starts its own, or, with --no-worker, says
 * loudly and again that nothing can progress.
 */

/** Live pollers of the cpu queue, or null when Temporal did not answer. */
export type PollerLook = { workflow: number; activity: number } | null;

export interface WatchOptions {
  /** Whether this command may start its own worker (not with --no-worker). */
  mayStart: boolean;
  /** Looks in a row with no worker before acting on it (the first look acts at once). */
  confirmLooks: number;
  /** With --no-worker, looks between two warnings. */
  warnEveryLooks: number;
}

export interface WatchState {
  looks: number;
  /** This command runs its own worker: nothing more to watch. */
  own: boolean;
  /** Looks in a row that found no worker. */
  absent: number;
  /** Looks in a row that Temporal did not answer. */
  failures: number;
  /** The look of the last no-worker warning, while no worker polls. */
  warnedAt: number | null;
  /** A worker was seen polling: its going is news. */
  relied: boolean;
}

export type WatchAction = { kind: 'start-worker'; line: string } | { kind: 'say'; line: string };

export const INITIAL_WATCH: WatchState = { looks: 0, own: false, absent: 0, failures: 0, warnedAt: null, relied: false };

export const DEFAULT_WATCH: WatchOptions = { mayStart: true, confirmLooks: 2, warnEveryLooks: 6 };

/**
 * One look's decision. Pure: a sequence of looks gives a sequence of actions. A study progresses only
 * through a workflow poller (every cpu worker polls workflows and activities); the activity pollers are
 * reported, not decisive (a busy worker polls no activities while its slots are full).
 */
export function watchStep(state: WatchState, look: PollerLook, opts: WatchOptions): { state: WatchState; actions: WatchAction[] } {
  if (state.own) return { state, actions: [] };
  const looks = state.looks + 1;
  if (look === null) {
    const failures = state.failures + 1;
    const actions: WatchAction[] = failures === 3 ? [{ kind: 'say', line: 'cannot see the cpu queue\'s pollers (Temporal does not answer); still watching' }] : [];
    return { state: { ...state, looks, failures }, actions };
  }
  const base = { ...state, looks, failures: 0 };
  if (look.workflow > 0) {
    const actions: WatchAction[] = [];
    if (state.looks === 0) actions.push({ kind: 'say', line: `a worker already polls the cpu queue; using it (this command watches it${opts.mayStart ? ' and starts its own worker if it goes' : ' and says so if it goes'})` });
    else if (state.warnedAt !== null) actions.push({ kind: 'say', line: 'a worker polls the cpu queue again; the study proceeds' });
    return { state: { ...base, absent: 0, warnedAt: null, relied: true }, actions };
  }
  const absent = state.absent + 1;
  if (state.looks > 0 && absent < opts.confirmLooks) return { state: { ...base, absent }, actions: [] };
  const gone = state.relied ? 'the worker this study relied on is gone: ' : '';
  const left = look.activity > 0 ? ` (${look.activity} activity poller(s) left, no workflow poller)` : '';
  if (opts.mayStart) {
    return { state: { ...base, absent, own: true }, actions: [{ kind: 'start-worker', line: `${gone}no worker polls the cpu queue${left}; starting one in this process` }] };
  }
  if (state.warnedAt !== null && looks - state.warnedAt < opts.warnEveryLooks) return { state: { ...base, absent }, actions: [] };
  const line = `WARNING: ${gone}no worker polls the cpu queue${left}: the study cannot progress until one does. Start one: envgap worker (or run study run without --no-worker)`;
  return { state: { ...base, absent, warnedAt: looks }, actions: [{ kind: 'say', line }] };
}

export interface WorkerWatch {
  /** Stops watching; drains this command's own worker, if it started one. */
  stop(): Promise<void>;
}

/** How often `study run` looks at the pollers. */
const WATCH_EVERY_MS = 5_000;

async function lookAtPollers(ctx: CliContext): Promise<PollerLook> {
  try {
    const [workflow, activity] = await Promise.all([workflowPollers(ctx), activityPollers(ctx, QUEUES.cpu)]);
    return { workflow, activity };
  } catch {
    return null;
  }
}

/**
 * Looks at once (starting a worker where none polls and `start` allows), then every few seconds
 * until stopped. The command's own worker, however started, drains when it stops.
 */
export async function watchWorkers(ctx: CliContext, opts: { start: boolean; everyMs?: number }): Promise<WorkerWatch> {
  const options = { ...DEFAULT_WATCH, mayStart: opts.start };
  let state = INITIAL_WATCH;
  let own: RunningWorker | null = null;
  let stopped = false;
  const tick = async (first: boolean) => {
    const step = watchStep(state, await lookAtPollers(ctx), options);
    state = step.state;
    for (const a of step.actions) {
      say(a.line);
      if (a.kind !== 'start-worker' || stopped) continue;
      try {
        own = await startInProcessWorker(ctx);
      } catch (err) {
        if (first) throw err;
        // Not started: the next look tries again.
        state = { ...state, own: false };
        say(`could not start a worker in this process: ${(err as Error).message}`);
      }
    }
  };
  await tick(true);
  let timer: NodeJS.Timeout | null = null;
  let pending: Promise<void> = Promise.resolve();
  const schedule = () => {
    if (stopped || state.own) return;
    timer = setTimeout(() => {
      pending = tick(false).catch((err) => say(`watching the cpu queue's pollers failed: ${(err as Error).message}`)).finally(schedule);
    }, opts.everyMs ?? WATCH_EVERY_MS);
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await pending;
      await (own as RunningWorker | null)?.stop();
    },
  };
}
