import { CancelledFailure, WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { SingleBar } from 'cli-progress';
import { loadCatalog } from '../catalog/catalog';
import { expandStudy, type StudyInput } from '../domain/study';
import { parseStudyFile, parseStudyYaml, readStudyFile, studyProtocol } from './studyFile';
import { runReadinessStudy } from './readinessStudy';
import { runReadmeStudy } from './readmeStudy';
import { QUEUES } from '../workers/queues';
import type { studyWorkflow, StudyProgress } from '../workflows/study';
import { openContext, type CliContext } from './context';
import { watchWorkers } from './workerWatch';
import { studyRecords } from '../db/instances';
import { studyTable } from './studyTable';
import { imageProgressLines } from './imageProgress';
import { refuseUnsetVariables } from './unsetVariables';
import { say } from './say';
import { uiLink } from './uiLink';
import { describeOrNull } from './workflowStatus';

type StudyHandle = WorkflowHandle<typeof studyWorkflow>;


async function printSummary(ctx: CliContext, name: string): Promise<void> {
  const table = await studyTable(ctx.db!, name);
  process.stdout.write(`\nStudy ${name}: ${table.records} instances\n${table.text}\n`);
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
  const watchedSince = Date.now();
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
        // A ready image says how long the preparation took since the study started watching.
        if (!shownImageLines.has(line)) say(line.endsWith(': ready') ? `${line} after ${Math.round((Date.now() - watchedSince) / 1000)} s` : line);
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
  say(`study ended after ${Math.round((Date.now() - watchedSince) / 1000)} s`);
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
    if (existing?.status.name !== 'RUNNING') refuseUnsetVariables(study.name, study.agents, opts.worker);
    const worker = await watchWorkers(ctx, { start: opts.worker });
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
      await worker.stop();
    }
    await printSummary(ctx, study.name);
  } finally {
    await ctx.close();
  }
}

export type { StudyInput };
