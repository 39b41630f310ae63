import { Client } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { startEphemeralDevServer } from '../infra/temporal';
import { cachedWorkflowBundle } from '../workers/bundle';
import { STUDY_HISTORY_LIMIT } from '../workflows/engine';
import { throwAwayState } from './run';

/** One run of a study's continue-as-new chain, as the server describes it. */
export interface ChainRun {
  runId: string;
  events: number;
  bytes: number;
}

/**
 * The history benchmarks' harness: a throw-away Temporal dev server and a worker of the real workflows
 * over the benchmark's instant activities; `measure` runs with its client, then all of it is removed.
 */
export async function withHistoryHarness(prefix: string, activities: object, maxCachedWorkflows: number, measure: (client: Client, taskQueue: string) => Promise<void>): Promise<void> {
  const { settings, remove } = throwAwayState(`envgap-bench-${prefix}-`);
  const server = await startEphemeralDevServer(settings.temporalCli);
  const connection = await NativeConnection.connect({ address: server.address });
  const taskQueue = `bench-${prefix}-${process.pid}`;
  const worker = await Worker.create({ connection, taskQueue, workflowBundle: await cachedWorkflowBundle(settings.stateDir), activities, maxCachedWorkflows });
  const running = worker.run();
  try {
    await measure(new Client({ connection: server.connection }), taskQueue);
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
    await server.stop();
    await remove();
  }
}

/** Every run of a workflow id's continue-as-new chain, oldest first, with its events and bytes. */
export async function chainRuns(client: Client, workflowId: string): Promise<ChainRun[]> {
  const runs: ChainRun[] = [];
  for await (const w of client.workflow.list({ query: `WorkflowId = "${workflowId}"` })) {
    const d = await client.workflow.getHandle(workflowId, w.runId).describe();
    runs.push({ runId: w.runId, events: d.historyLength, bytes: Number(d.raw.workflowExecutionInfo?.historySizeBytes ?? 0) });
  }
  return runs.reverse();
}

/** The mean number of history events of the given workflows (a sample of a study's instances). */
export async function meanEvents(client: Client, ids: string[]): Promise<number> {
  let events = 0;
  for (const id of ids) events += (await client.workflow.getHandle(id).fetchHistory()).events?.length ?? 0;
  return events / ids.length;
}

export function printChain(runs: ChainRun[]): void {
  console.log(`continue-as-new chain: ${runs.length} runs (hand-over past ${STUDY_HISTORY_LIMIT} events or when the server suggests it)`);
  for (const r of runs) console.log(`  run ${r.runId.slice(0, 8)}: ${r.events} events, ${(r.bytes / 1024).toFixed(0)} KiB`);
}
