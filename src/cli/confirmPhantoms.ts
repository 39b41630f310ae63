import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { studyRecords } from '../db/instances';
import { findAnyStudy } from '../db/studies';
import { DEFAULT_CONFIRM_MAX_TRIALS } from '../domain/confirmation/types';
import { QUEUES } from '../workers/queues';
import { confirmStudyId } from '../domain/confirmation/ids';
import type { confirmStudyWorkflow } from '../workflows/confirmStudy';
import { confirmationTable } from './confirmationTable';
import { openContext, startWorkerIfNone } from './context';
import { followProgress } from './followProgress';
import { say } from './say';
import { uiLink } from './uiLink';
import { workflowStatus } from './workflowStatus';

export interface ConfirmOptions {
  maxTrials?: string;
  again?: boolean;
}

/**
 * `envgap study confirm-phantoms NAME`: phantom confirmation of a finished environment gap study's
 * successful instances (docs/confirmation.md), as a workflow of its own (`NAME/confirm-phantoms`),
 * followed to its end (or followed where it runs already); then the table of what it found.
 */
export async function confirmStudyPhantoms(name: string, o: ConfirmOptions): Promise<void> {
  const maxTrials = o.maxTrials === undefined ? undefined : Number(o.maxTrials);
  if (maxTrials !== undefined && (!Number.isInteger(maxTrials) || maxTrials < 1 || maxTrials > 1000)) throw new Error(`--max-trials: a whole number from 1 to 1000, not "${o.maxTrials}"`);
  const ctx = await openContext({ db: true });
  try {
    const db = ctx.db!;
    if ((await workflowStatus(ctx.client, name)) === 'RUNNING') {
      throw new Error(`study "${name}" is still running: confirm its phantoms once it has finished (or give its study file confirm_phantoms: true, which confirms each instance as it succeeds)`);
    }
    const spec = await findAnyStudy(db, name);
    if (!spec) throw new Error(`study "${name}" is not in the results database`);
    if (spec.protocol !== undefined) throw new Error(`study "${name}" is a ${spec.protocol} study; phantom confirmation is for environment gap studies`);
    const input = { study: spec, maxTrials: maxTrials ?? spec.confirmPhantoms?.maxTrials ?? DEFAULT_CONFIRM_MAX_TRIALS, ...(o.again ? { again: true } : {}) };
    const id = confirmStudyId(name);
    const worker = await startWorkerIfNone(ctx);
    try {
      let handle;
      try {
        handle = await ctx.client.workflow.start<typeof confirmStudyWorkflow>('confirmStudyWorkflow', { workflowId: id, taskQueue: QUEUES.cpu, args: [input] });
        say(`confirming the phantoms of study "${name}" (at most ${input.maxTrials} trials per instance)${uiLink(ctx, id) ? `: ${uiLink(ctx, id)}` : ''}`);
      } catch (err) {
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
        handle = ctx.client.workflow.getHandle<typeof confirmStudyWorkflow>(id);
        say(`the confirmation of study "${name}" is already running; following it`);
      }
      const started = Date.now();
      const summary = await followProgress<Awaited<ReturnType<typeof confirmStudyWorkflow>>>(handle);
      say(`confirmation ended after ${Math.round((Date.now() - started) / 1000)} s: ${summary.progress.counts.confirmed} confirmed, ${summary.progress.counts.skipped} skipped (not successful, or confirmed already), ${summary.progress.counts.error} error`);
    } finally {
      await worker?.stop();
    }
    process.stdout.write(`\n${confirmationTable(await studyRecords(db, name))}\n`);
  } finally {
    await ctx.close();
  }
}
