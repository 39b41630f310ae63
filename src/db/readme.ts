import { ReadmeRecord } from '../domain/readme';
import type { Db } from './connect';
import { decodeJson, encodeJson } from './json';

/** The `readme_instances` table: one record per instance id; a retried instance replaces its own. */
export async function saveReadmeRecord(db: Db, id: string, record: ReadmeRecord): Promise<void> {
  const row = { study: record.study, agent: record.agent, instance: record.instance, trial: record.trial, status: record.status, record: encodeJson(record) };
  await db
    .insertInto('readme_instances')
    .values({ id, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet({ ...row, updated_at: new Date() }))
    .execute();
}

/** A study's README records, by instance id. */
export async function readmeRecords(db: Db, study: string): Promise<ReadmeRecord[]> {
  const rows = await db.selectFrom('readme_instances').select(['record']).where('study', '=', study).orderBy('id').execute();
  return rows.map((r) => ReadmeRecord.parse(decodeJson(r.record)));
}
