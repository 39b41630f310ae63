import { condition, defineQuery, defineSignal, setHandler, workflowInfo } from '@temporalio/workflow';

/**
 * The study engine every protocol's study workflow stands on: the sliding window of instances (each a
 * child workflow, at most `concurrency` at a time), pause and resume, running error instances again,
 * progress for `envgap study status`, and the hand-over to a fresh run (continue-as-new) with the
 * position and counts, so a study's history stays bounded whatever its size.
 */

export interface StudyProgress<S extends string = string> {
  total: number;
  done: number;
  running: string[];
  /** Instances by the status their instance workflow ended with (gap: success/failed/error; others: completed/error). */
  counts: Record<S, number>;
  /** Paused: running instances finish, no new one starts until resumed (envgap study pause / resume). */
  paused?: boolean;
  /** When the study's first run started (ms since the epoch): throughput and ETA are measured from it. */
  startedAtMs?: number;
  /** Instances asked to run again (envgap study retry-errors), not yet started. */
  retrying?: string[];
  /** The gap protocol's runtime image of each language: prepared before any instance starts. */
  images?: Partial<Record<string, 'preparing' | 'ready'>>;
  /** Agents whose instances no longer start, and why (their model endpoint refused the key: a configuration error). */
  stoppedAgents?: Record<string, string>;
}

/** Where a study continued as new: the instances before `next` are done and counted. */
export interface StudyCarry<S extends string = string> {
  next: number;
  done: number;
  counts: Record<S, number>;
  paused?: boolean;
  startedAtMs?: number;
  retrying?: string[];
  stoppedAgents?: Record<string, string>;
}

/** What an instance ended with; `stopAgent`: why no further instance of its agent should start. */
export interface InstanceEnd<S extends string> {
  status: S;
  stopAgent?: string;
}

/** How a study stops starting an agent's instances: whose an instance is, and how one not started is recorded. */
export interface AgentStops<I> {
  agentOf(inst: I): string;
  /** Records the instance as not started, for `why`; returns its status (the protocol's error). */
  skip(inst: I, why: string): Promise<string>;
}

/** Past this many history events a study hands over to a fresh run, so history stays small. */
export const STUDY_HISTORY_LIMIT = 10_000;

export const progressQuery = defineQuery<StudyProgress>('progress');
export const pauseSignal = defineSignal('pause');
export const resumeSignal = defineSignal('resume');
/** Instance ids of this study whose record is `error`, to run again in this study (the CLI reads them from the database). */
export const retryErrorsSignal = defineSignal<[string[]]>('retryErrors');

/** The status every protocol gives an instance whose harness failed: the one `retry-errors` runs again. */
const ERROR = 'error';

export class StudyEngine<I extends { instanceId: string }, S extends string> {
  readonly progress: StudyProgress<S>;
  private next: number;
  private readonly byId: Map<string, number>;

  /** Opens the study's run: progress from the carry (or zero), and the query and signal handlers. */
  constructor(
    private readonly instances: readonly I[],
    zero: Record<S, number>,
    carry?: StudyCarry<S>,
  ) {
    this.next = carry?.next ?? 0;
    this.byId = new Map(instances.map((inst, i) => [inst.instanceId, i]));
    this.progress = {
      total: instances.length,
      done: carry?.done ?? 0,
      running: [],
      counts: carry ? { ...carry.counts } : { ...zero },
      paused: carry?.paused ?? false,
      startedAtMs: carry?.startedAtMs ?? workflowInfo().startTime.getTime(),
      retrying: [...(carry?.retrying ?? [])],
      ...(carry?.stoppedAgents ? { stoppedAgents: { ...carry.stoppedAgents } } : {}),
    };
    setHandler(progressQuery, () => this.progress);
    setHandler(pauseSignal, () => void (this.progress.paused = true));
    setHandler(resumeSignal, () => void (this.progress.paused = false));
    setHandler(retryErrorsSignal, (ids: string[]) => {
      // Only instances already run (before `next`) and not queued or running again.
      for (const id of ids) {
        const at = this.byId.get(id);
        if (at !== undefined && at < this.next && !this.progress.retrying!.includes(id) && !this.progress.running.includes(id)) this.progress.retrying!.push(id);
      }
    });
  }

  private more(): boolean {
    return this.next < this.instances.length || this.progress.retrying!.length > 0;
  }

  /**
   * Runs instances until all are done or the history asks for a hand-over; returns the carry for the
   * next run, or null when the study is done. Every lane starts one instance in every run, so a study
   * always moves on.
   */
  async run(concurrency: number, historyLimit: number, runInstance: (inst: I) => Promise<InstanceEnd<S>>, stops?: AgentStops<I>): Promise<StudyCarry<S> | null> {
    const p = this.progress;
    const handOver = () => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > historyLimit;
    const lane = async () => {
      for (let first = true; this.more() && (first || !handOver()); first = false) {
        if (p.paused) await condition(() => !p.paused);
        if (!this.more()) break;
        const retry = p.retrying!.shift();
        const inst = retry !== undefined ? this.instances[this.byId.get(retry)!]! : this.instances[this.next++]!;
        p.running.push(inst.instanceId);
        // An agent whose endpoint refused its key is not started again: its instances are recorded as not started, and why.
        const agent = stops?.agentOf(inst);
        const stopped = agent !== undefined ? p.stoppedAgents?.[agent] : undefined;
        const outcome: InstanceEnd<S> = stopped !== undefined ? { status: (await stops!.skip(inst, stopped)) as S } : await runInstance(inst);
        if (outcome.stopAgent && agent !== undefined) p.stoppedAgents = { ...p.stoppedAgents, [agent]: outcome.stopAgent };
        p.running = p.running.filter((id) => id !== inst.instanceId);
        p.counts[outcome.status]++;
        // A retried instance was counted once already, as an error.
        if (retry !== undefined) p.counts[ERROR as S]--;
        else p.done++;
      }
    };
    do {
      await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, this.instances.length - this.next + p.retrying!.length)) }, lane));
    } while (!handOver() && this.more());
    if (!this.more()) return null;
    return { next: this.next, done: p.done, counts: p.counts, paused: p.paused, startedAtMs: p.startedAtMs, retrying: p.retrying, ...(p.stoppedAgents ? { stoppedAgents: p.stoppedAgents } : {}) };
  }
}
