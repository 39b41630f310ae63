import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { studyRecords } from '../db/instances';
import { findStudy } from '../db/studies';
import { expandStudy, type InstanceInput } from '../domain/study';
import { parseInstanceId } from '../domain/instance';
import { QUEUES } from '../workers/queues';
import type { instanceWorkflow } from '../workflows/instance';
import { openContext, startWorkerIfNone } from './context';
import { recordsTable } from './records';
import { say } from './say';
import { uiLink } from './study';
import { workflowStatus } from './workflowStatus';

/** Runs one instance again under its own id; its record is replaced, others are untouched. */
export async function retryInstance(id: string): Promise<void> {
  const key = parseInstanceId(id);
  const ctx = await openContext({ db: true });
  try {
    const db = ctx.db!;
    // A running study starts (or is about to start) its own child of this id; a retry would race it.
    if ((await workflowStatus(ctx.client, key.study)) === 'RUNNING') {
      throw new Error(
        `study "${key.study}" is still running; instance ${id} will be run by it: ` +
          `wait for the study to finish or cancel it first (envgap study cancel ${key.study})`,
      );
    }
    const spec = await findStudy(db, key.study);
    if (!spec) throw new Error(`study "${key.study}" is not in the database, so instance ${id} cannot be retried`);
    const input: InstanceInput | undefined = expandStudy(spec).find((i) => i.instanceId === id);
    if (!input) throw new Error(`instance ${id} is not part of study "${key.study}"`);
    const worker = await startWorkerIfNone(ctx);
    try {
      let handle;
      try {
        handle = await ctx.client.workflow.start<typeof instanceWorkflow>('instanceWorkflow', { workflowId: id, taskQueue: QUEUES.cpu, args: [input] });
        say(`retrying ${id}${uiLink(ctx, id) ? ` (${uiLink(ctx, id)})` : ''}`);
      } catch (err) {
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
        handle = ctx.client.workflow.getHandle<typeof instanceWorkflow>(id);
        say(`${id} is already running; following it`);
      }
      const outcome = await handle.result();
      say(`${id}: ${outcome.status}`);
    } finally {
      await worker?.stop();
    }
    const records = (await studyRecords(db, key.study)).filter((r) => `${r.study}/${r.agent}/${r.language}/${r.task}/${r.trial}` === id);
    process.stdout.write(recordsTable(records) + '\n');
  } finally {
    await ctx.close();
  }
}
