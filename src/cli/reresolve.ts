import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/client';
import { studyRecords } from '../db/instances';
import { studyReresolutions } from '../db/reresolutions';
import { findAnyStudy } from '../db/studies';
import { instanceId } from '../domain/instance';
import { reresolutionSummary, reresolveStudyId } from '../domain/reresolution';
import { QUEUES } from '../workers/queues';
import type { reresolveStudyWorkflow } from '../workflows/reresolveStudy';
import { openContext, startWorkerIfNone } from './context';
import { reresolutionSummaryText, reresolutionTable } from './reresolutionTable';
import { followProgress } from './followProgress';
import { say } from './say';
import { uiLink } from './uiLink';
import { workflowStatus } from './workflowStatus';

export interface ReresolveOptions {
  format?: string;
  /** Run the day's re-resolution again (it is otherwise reported as it ended). */
  again?: boolean;
}

/**
 * `envgap study re-resolve NAME`: a finished environment gap study's final manifests installed again
 * today (docs/resolution.md), as a workflow of its own (`NAME/re-resolve/<day>`), followed to its end;
 * then per instance whether it still installs and how its D2 changed, and the summary. A second call
 * the same day reports that day's re-resolution (`--again` runs it again).
 */
export async function reresolveStudy(name: string, o: ReresolveOptions): Promise<void> {
  const format = o.format ?? 'table';
  if (format !== 'table' && format !== 'json') throw new Error(`--format: table or json, not "${format}"`);
  const on = new Date().toISOString().slice(0, 10);
  const ctx = await openContext({ db: true });
  try {
    const db = ctx.db!;
    if ((await workflowStatus(ctx.client, name)) === 'RUNNING') throw new Error(`study "${name}" is still running: re-resolve its manifests once it has finished`);
    const spec = await findAnyStudy(db, name);
    if (!spec) throw new Error(`study "${name}" is not in the results database`);
    if (spec.protocol !== undefined) throw new Error(`study "${name}" is a ${spec.protocol} study; re-resolution is for environment gap studies`);
    const id = reresolveStudyId(name, on);
    const worker = await startWorkerIfNone(ctx);
    try {
      let handle;
      try {
        handle = await ctx.client.workflow.start<typeof reresolveStudyWorkflow>('reresolveStudyWorkflow', {
          workflowId: id,
          taskQueue: QUEUES.cpu,
          args: [{ study: spec, on }],
          workflowIdReusePolicy: o.again ? WorkflowIdReusePolicy.ALLOW_DUPLICATE : WorkflowIdReusePolicy.REJECT_DUPLICATE,
        });
        say(`re-resolving the final manifests of study "${name}" as of today (${on})${uiLink(ctx, id) ? `: ${uiLink(ctx, id)}` : ''}`);
      } catch (err) {
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
        handle = ctx.client.workflow.getHandle<typeof reresolveStudyWorkflow>(id);
        say(`the re-resolution of study "${name}" on ${on} ran already or is running: following it (--again runs it again)`);
      }
      await followProgress(handle);
    } finally {
      await worker?.stop();
    }
    const records = await studyReresolutions(db, name, on);
    const done = new Set(records.map((r) => r.instance_id));
    const missing = (await studyRecords(db, name)).filter((r) => r.status === 'success').map((r) => instanceId(r)).filter((i) => !done.has(i));
    const summary = reresolutionSummary(records);
    if (format === 'json') {
      process.stdout.write(`${JSON.stringify({ study: name, resolved_on: on, summary, errors: missing, instances: records }, null, 2)}\n`);
      return;
    }
    process.stdout.write(`\n${reresolutionTable(records, missing)}\n\n${reresolutionSummaryText(on, summary, missing.length)}\n`);
  } finally {
    await ctx.close();
  }
}
