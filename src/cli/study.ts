import { CancelledFailure, WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { SingleBar } from 'cli-progress';
import { loadCatalog } from '../catalog/catalog';
import { expandStudy, type StudyInput } from '../domain/study';
import { parseStudyFile, parseStudyYaml, readStudyFile, studyProtocol } from './studyFile';
import { retryInstance } from './instance';
import { runReadinessStudy } from './readinessStudy';
import { runReadmeStudy } from './readmeStudy';
import { QUEUES } from '../workers/queues';
import type { studyWorkflow, StudyProgress } from '../workflows/study';
import { openContext, startWorkerIfNone, type CliContext } from './context';
import { studyRecords } from '../db/instances';
import { recordsTable } from './records';
import { imageProgressLines } from './imageProgress';
import { say } from './say';
import { describeOrNull } from './workflowStatus';

type StudyHandle = WorkflowHandle<typeof studyWorkflow>;


export function uiLink(ctx: CliContext, workflowId: string): string | null {
  return ctx.temporal.uiUrl ? `${ctx.temporal.uiUrl}/namespaces/${ctx.temporal.namespace}/workflows/${encodeURIComponent(workflowId)}` : null;
}

async function printSummary(ctx: CliContext, name: string): Promise<void> {
  const records = await studyRecords(ctx.db!, name);
  process.stdout.write(`\nStudy ${name}: ${records.length} instances\n${recordsTable(records)}\n`);
  const link = uiLink(ctx, name);
  if (link) process.stdout.write(`\nTemporal UI: ${link}\n`);
}

/** Polls the study's progress query and draws a bar (a line per change when not a terminal). */
async function watchProgress(handle: StudyHandle): Promise<void> {
  const tty = process.stderr.isTTY;
  const bar = new SingleBar({
    format: 'envgap: {bar} {value}/{total} | success {success} failed {failed} error {error} | {running}',
    hideCursor: true,
    noTTYOutput: false,
    stream: process.stderr,
  });
  let started = false;
  let last = '';
  const shownImageLines = new Set<string>();
  const result = handle.result();
  let finished = false;
  void result.then(() => (finished = true), () => (finished = true));
  while (!finished) {
    let p: StudyProgress | null = null;
    try {
      p = await handle.query<StudyProgress>('progress');
    } catch {
      // the first workflow task may not have run yet
    }
    if (p) {
      for (const line of await imageProgressLines(handle, p)) {
        if (!shownImageLines.has(line)) say(line);
        shownImageLines.add(line);
      }
    }
    if (p && !Object.values(p.images ?? {}).includes('preparing')) {
      const payload = { ...p.counts, running: p.running.length ? `running ${p.running.map((r) => r.split('/').slice(1).join('/')).join(', ')}` : '' };
      if (tty) {
        if (!started) bar.start(p.total, p.done, payload);
        started = true;
        bar.update(p.done, payload);
      } else {
        const line = `${p.done}/${p.total} done | success ${p.counts.success} failed ${p.counts.failed} error ${p.counts.error} ${payload.running}`;
        if (line !== last) say(line);
        last = line;
      }
    }
    await Promise.race([result.catch(() => undefined), new Promise((r) => setTimeout(r, 1000))]);
  }
  if (started) bar.stop();
  await result;
}

export async function runStudy(file: string, opts: { worker: boolean }): Promise<void> {
  const text = readStudyFile(file);
  const protocol = studyProtocol(parseStudyYaml(text, file));
  if (protocol === 'readiness') return runReadinessStudy(text, file, opts);
  if (protocol === 'readme') return runReadmeStudy(text, file, opts);
  const study = parseStudyFile(text, file, loadCatalog());
  const ctx = await openContext({ db: true });
  try {
    const handle = ctx.client.workflow.getHandle<typeof studyWorkflow>(study.name);
    const existing = await describeOrNull(handle);
    if (existing?.status.name === 'COMPLETED') {
      say(`study "${study.name}" already finished (${existing.closeTime?.toISOString()}); not running it again`);
      if ((await studyRecords(ctx.db!, study.name)).length === 0) {
        // The Temporal server ran it against another results database (another ENVGAP_STATE or DATABASE_URL).
        say(`the results database (${ctx.settings.databaseUrl ? 'DATABASE_URL' : `the private one in ${ctx.settings.stateDir}`}) holds no record of it: it ran against another database; use that one, or give the study another name`);
      } else say(`to re-run failed or errored instances alone: envgap instance retry <id>`);
      await printSummary(ctx, study.name);
      return;
    }
    const worker = opts.worker ? await startWorkerIfNone(ctx) : null;
    try {
      if (existing?.status.name === 'RUNNING') {
        say(`study "${study.name}" is already running; following it`);
      } else {
        await ctx.client.workflow.start('studyWorkflow', { workflowId: study.name, taskQueue: QUEUES.cpu, args: [study] });
        say(`started study "${study.name}": ${expandStudy(study).length} instances (${study.agents.length} agent(s), ${study.languages.join(', ')}, ${study.trials} trial(s)), budget k=${study.budget}`);
      }
      const link = uiLink(ctx, study.name);
      if (link) say(`Temporal UI: ${link}`);
      await watchProgress(handle);
    } catch (err) {
      if (!(err instanceof WorkflowFailedError && err.cause instanceof CancelledFailure)) throw err;
      say(`study "${study.name}" was cancelled; the instances recorded so far:`);
      await printSummary(ctx, study.name);
      throw new Error(`study "${study.name}" was cancelled`);
    } finally {
      await worker?.stop();
    }
    await printSummary(ctx, study.name);
  } finally {
    await ctx.close();
  }
}

export async function studyStatus(name: string): Promise<void> {
  const ctx = await openContext({ db: false });
  try {
    const handle = ctx.client.workflow.getHandle<typeof studyWorkflow>(name);
    const d = await describeOrNull(handle);
    if (!d) throw new Error(`no study named "${name}" on ${ctx.temporal.address}`);
    process.stdout.write(`study ${name}: ${d.status.name} (started ${d.startTime.toISOString()})\n`);
    if (d.status.name === 'RUNNING' || d.status.name === 'COMPLETED') {
      // A finished study answers from its result; a query would need a worker to replay it.
      const p = d.status.name === 'COMPLETED' ? (await handle.result()).progress : await handle.query<StudyProgress>('progress');
      process.stdout.write(`${p.done}/${p.total} done: success ${p.counts.success}, failed ${p.counts.failed}, error ${p.counts.error}${p.paused ? ' (paused: no new instance starts; envgap study resume ' + name + ')' : ''}\n`);
      if (p.running.length) process.stdout.write(`running: ${p.running.join(', ')}\n`);
      if (p.retrying?.length) process.stdout.write(`to run again: ${p.retrying.length}\n`);
      const pace = studyPace(p, d.status.name === 'COMPLETED' ? (d.closeTime ?? new Date()).getTime() : Date.now());
      if (pace) process.stdout.write(`${pace}\n`);
    }
    const link = uiLink(ctx, name);
    if (link) process.stdout.write(`Temporal UI: ${link}\n`);
  } finally {
    await ctx.close();
  }
}

/** Throughput since the study's first run started, and the time left at that pace; null before anything is done. */
export function studyPace(p: Pick<StudyProgress, 'done' | 'total' | 'startedAtMs'>, nowMs: number): string | null {
  if (!p.startedAtMs || p.done === 0 || nowMs <= p.startedAtMs) return null;
  const perMin = p.done / ((nowMs - p.startedAtMs) / 60_000);
  const left = p.total - p.done;
  const eta = left === 0 ? 'done' : `ETA ${formatMinutes(left / perMin)}`;
  return `throughput ${perMin.toFixed(perMin < 10 ? 2 : 1)} instances/min; ${eta}`;
}

function formatMinutes(min: number): string {
  if (min < 1) return `${Math.ceil(min * 60)} s`;
  if (min < 120) return `${Math.ceil(min)} min`;
  return `${(min / 60).toFixed(1)} h`;
}

/** Pauses or resumes a running study: running instances finish, no new one starts while paused. */
export async function signalStudy(name: string, signal: 'pause' | 'resume'): Promise<void> {
  const ctx = await openContext({ db: false });
  try {
    const handle = ctx.client.workflow.getHandle(name);
    const d = await describeOrNull(handle);
    if (d?.status.name !== 'RUNNING') throw new Error(`study "${name}" is not running${d ? ` (${d.status.name})` : ''}`);
    await handle.signal(signal);
    say(signal === 'pause' ? `study "${name}" paused: its running instances finish, no new one starts (envgap study resume ${name})` : `study "${name}" resumed`);
  } finally {
    await ctx.close();
  }
}

/**
 * Runs every `error` instance of a study again: inside the study while it runs (a signal; it queues
 * them), else each under its own id (envgap instance retry), its record replaced.
 */
export async function retryStudyErrors(name: string): Promise<void> {
  const ctx = await openContext({ db: true });
  const errors = (await studyRecords(ctx.db!, name)).filter((r) => r.status === 'error').map((r) => `${r.study}/${r.agent}/${r.language}/${r.task}/${r.trial}`);
  try {
    if (errors.length === 0) {
      say(`study "${name}" has no error instance`);
      return;
    }
    const handle = ctx.client.workflow.getHandle(name);
    if ((await describeOrNull(handle))?.status.name === 'RUNNING') {
      await handle.signal('retryErrors', errors);
      say(`study "${name}" runs ${errors.length} error instance(s) again; envgap study status ${name} shows them`);
      return;
    }
  } finally {
    await ctx.close();
  }
  for (const id of errors) await retryInstance(id);
}

export async function cancelStudy(name: string): Promise<void> {
  const ctx = await openContext({ db: false });
  try {
    await ctx.client.workflow.getHandle(name).cancel();
    process.stdout.write(`asked study "${name}" to cancel; running instances are cancelled and their containers removed\n`);
  } finally {
    await ctx.close();
  }
}

export type { StudyInput };
