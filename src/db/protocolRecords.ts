import type { Insertable } from 'kysely';
import type { Db } from './connect';
import { decodeJson } from './json';
import type { Database } from './schema';

/**
 * The tables of the protocols that keep one record per instance (`readiness_instances`,
 * `readme_instances`): the record as jsonb, beside the columns it is looked up by.
 */
export type ProtocolRecordTable = 'readiness_instances' | 'readme_instances';

/** A row of such a table as written, less its id and timestamp. */
export type ProtocolRecordRow<T extends ProtocolRecordTable> = Omit<Insertable<Database[T]>, 'id' | 'updated_at'>;

/** Stores an instance's row by its id: a retried instance replaces its own. */
export async function saveProtocolRecordRow<T extends ProtocolRecordTable>(db: Db, table: T, id: string, row: ProtocolRecordRow<T>): Promise<void>;
export async function saveProtocolRecordRow(db: Db, table: ProtocolRecordTable, id: string, row: ProtocolRecordRow<'readiness_instances'> | ProtocolRecordRow<'readme_instances'>): Promise<void> {
  await db
    .insertInto(table)
    .values({ id, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet({ ...row, updated_at: new Date() }))
    .execute();
}

/** A study's records in such a table, by instance id, each read back through the protocol's schema. */
export async function protocolRecords<R>(db: Db, table: ProtocolRecordTable, study: string, schema: { parse(value: unknown): R }): Promise<R[]> {
  const rows = await db.selectFrom(table).select(['record']).where('study', '=', study).orderBy('id').execute();
  return rows.map((r) => schema.parse(decodeJson(r.record)));
}
