import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { findAnyStudy } from '../db/studies';
import { instanceId } from '../domain/instance';
import { QUEUES } from '../workers/queues';
import { openContext, startWorkerIfNone } from './context';
import { protocolOfSpec, studyOfInstanceId } from './protocols';
import { studyTable } from './studyTable';
import { say } from './say';
import { uiLink } from './uiLink';
import { workflowStatus } from './workflowStatus';

/** Runs one instance of a study of any protocol again under its own id; its record is replaced, others are untouched. */
export async function retryInstance(id: string): Promise<void> {
  const key = { study: studyOfInstanceId(id) };
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
    const spec = await findAnyStudy(db, key.study);
    if (!spec) throw new Error(`study "${key.study}" is not in the database, so instance ${id} cannot be retried`);
    const protocol = protocolOfSpec(spec);
    const input = protocol.instances(spec).find((i) => i.instanceId === id);
    if (!input) throw new Error(`instance ${id} is not part of study "${key.study}"`);
    const worker = await startWorkerIfNone(ctx);
    try {
      let handle;
      try {
        handle = await ctx.client.workflow.start(protocol.instanceWorkflow, { workflowId: id, taskQueue: QUEUES.cpu, args: [input] });
        say(`retrying ${id}${uiLink(ctx, id) ? ` (${uiLink(ctx, id)})` : ''}`);
      } catch (err) {
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
        handle = ctx.client.workflow.getHandle(id);
        say(`${id} is already running; following it`);
      }
      const outcome = (await handle.result()) as { status: string };
      say(`${id}: ${outcome.status}`);
    } finally {
      await worker?.stop();
    }
    if (protocol.protocol === 'envgap') {
      process.stdout.write((await studyTable(db, key.study, (r) => instanceId(r) === id)).text + '\n');
    } else {
      const row = (await protocol.records(db, key.study)).find((r) => r.id === id);
      process.stdout.write(`${id}: ${row ? row.status : 'no record'}\n`);
    }
  } finally {
    await ctx.close();
  }
}
