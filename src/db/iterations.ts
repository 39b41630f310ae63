import type { ExecutionOutcome } from '../domain/execution';
import type { Db } from './connect';
import { decodeJsonOrNull, encodeJson } from './json';
import type { AgentCallMeta } from './schema';

/** The `iterations` table: one row per (instance, iteration): the agent's call, then its execution. */

export interface AgentCall {
  instanceId: string;
  iteration: number;
  filesHash: string | null;
  meta: AgentCallMeta;
}

export interface IterationRow {
  instanceId: string;
  iteration: number;
  filesHash: string | null;
  agent: AgentCallMeta | null;
  execution: ExecutionOutcome | null;
}

/**
 * Records an agent call: inserts the iteration, or on a retried call replaces its files and meta and
 * clears the execution of the files it replaced.
 */
export async function recordAgentCall(db: Db, call: AgentCall): Promise<void> {
  const agent = encodeJson(call.meta);
  await db
    .insertInto('iterations')
    .values({ instance_id: call.instanceId, iteration: call.iteration, files_hash: call.filesHash, agent, execution: null })
    .onConflict((oc) => oc.columns(['instance_id', 'iteration']).doUpdateSet({ files_hash: call.filesHash, agent, execution: null }))
    .execute();
}

/** Sets the execution of an iteration already recorded by `recordAgentCall` (no row: nothing changes). */
export async function recordExecution(db: Db, instanceId: string, iteration: number, outcome: ExecutionOutcome): Promise<void> {
  await db
    .updateTable('iterations')
    .set({ execution: encodeJson(outcome) })
    .where('instance_id', '=', instanceId)
    .where('iteration', '=', iteration)
    .execute();
}

/** The iterations of an instance, in order. */
export async function instanceIterations(db: Db, instanceId: string): Promise<IterationRow[]> {
  const rows = await db
    .selectFrom('iterations')
    .select(['instance_id', 'iteration', 'files_hash', 'agent', 'execution'])
    .where('instance_id', '=', instanceId)
    .orderBy('iteration')
    .execute();
  return rows.map((r) => ({
    instanceId: r.instance_id,
    iteration: r.iteration,
    filesHash: r.files_hash,
    agent: decodeJsonOrNull(r.agent),
    execution: decodeJsonOrNull(r.execution),
  }));
}

/** The agent calls of a study's recorded instances (the agent column only, light for a large study), by instance and iteration. */
export async function studyAgentCalls(db: Db, study: string): Promise<{ instanceId: string; iteration: number; agent: AgentCallMeta | null }[]> {
  const rows = await db
    .selectFrom('iterations')
    .innerJoin('instances', 'instances.id', 'iterations.instance_id')
    .select(['iterations.instance_id', 'iterations.iteration', 'iterations.agent'])
    .where('instances.study', '=', study)
    .orderBy('iterations.instance_id')
    .orderBy('iterations.iteration')
    .execute();
  return rows.map((r) => ({ instanceId: r.instance_id, iteration: r.iteration, agent: decodeJsonOrNull(r.agent) }));
}
