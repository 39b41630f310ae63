import type { ExecutionOutcome } from '../domain/execution';
import type { InstanceRecord } from '../domain/instance';
import type { InstanceInput } from '../domain/study';
import { sql, type OnConflictBuilder } from 'kysely';
import type { Db } from './connect';
import type { Database } from './schema';
import { decodeJson, encodeJson } from './json';

/** The `instances` table: one row per instance id, holding its input and its record. */

function instanceRow(input: InstanceInput, record: InstanceRecord) {
  return {
    id: input.instanceId,
    study: record.study,
    agent: record.agent,
    language: record.language,
    task: record.task,
    trial: record.trial,
    status: record.status,
    input: encodeJson(input),
    record: encodeJson(record),
  };
}

/** On the instance id's conflict: the row's status, input and record replace the stored ones. */
function replacing(row: ReturnType<typeof instanceRow>) {
  return (oc: OnConflictBuilder<Database, 'instances'>) => oc.column('id').doUpdateSet({ status: row.status, input: row.input, record: row.record, updated_at: new Date() });
}

/** Upserts by instance id, so a retried activity or a retried instance leaves exactly one row. */
export async function saveInstance(db: Db, input: InstanceInput, record: InstanceRecord): Promise<void> {
  const row = instanceRow(input, record);
  await db.insertInto('instances').values(row).onConflict(replacing(row)).execute();
}

/**
 * The execution that ends an instance and the instance's record, in one statement: one round trip
 * and one commit, and a record is never stored without the execution it ends with. Upserts as
 * saveInstance does; the iteration's row is the agent call's (recordAgentCall), as for recordExecution.
 */
export async function saveInstanceWithExecution(db: Db, input: InstanceInput, record: InstanceRecord, execution: { iteration: number; outcome: ExecutionOutcome }): Promise<void> {
  const row = instanceRow(input, record);
  await db
    .with('execution', (qb) =>
      qb.updateTable('iterations').set({ execution: encodeJson(execution.outcome) }).where('instance_id', '=', input.instanceId).where('iteration', '=', execution.iteration),
    )
    .insertInto('instances')
    .values(row)
    .onConflict(replacing(row))
    .execute();
}

/** The stored record of one instance (as written: a caller that must trust it parses it), or null when none is stored. */
export async function findInstanceRecord(db: Db, id: string): Promise<InstanceRecord | null> {
  const row = await db.selectFrom('instances').select(['record']).where('id', '=', id).executeTakeFirst();
  return row ? decodeJson(row.record) : null;
}

/** The records of a study's instances, by instance id. */
export async function studyRecords(db: Db, study: string): Promise<InstanceRecord[]> {
  const rows = await db.selectFrom('instances').select(['record']).where('study', '=', study).orderBy('id').execute();
  return rows.map((r) => decodeJson(r.record));
}

/** The stored input and record of one instance, or null when none is stored. */
export async function findInstanceRow(db: Db, id: string): Promise<{ input: InstanceInput; record: InstanceRecord } | null> {
  const row = await db.selectFrom('instances').select(['input', 'record']).where('id', '=', id).executeTakeFirst();
  return row ? { input: decodeJson(row.input), record: decodeJson(row.record) } : null;
}

/** Replaces the record of a stored instance (its status stays the record's); false where no instance has this id. */
export async function replaceInstanceRecord(db: Db, id: string, record: InstanceRecord): Promise<boolean> {
  const r = await db.updateTable('instances').set({ record: encodeJson(record), status: record.status, updated_at: sql`now()` }).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
