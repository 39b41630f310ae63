import { ReadinessRecord } from '../domain/readiness';
import type { Db } from './connect';
import { decodeJson, encodeJson } from './json';

/** The `readiness_instances` table: one record per instance id; a retried instance replaces its own. */
export async function saveReadinessRecord(db: Db, id: string, record: ReadinessRecord): Promise<void> {
  const row = { study: record.study, agent: record.agent, repo: record.repo, trial: record.trial, status: record.status, record: encodeJson(record) };
  await db
    .insertInto('readiness_instances')
    .values({ id, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet({ ...row, updated_at: new Date() }))
    .execute();
}

/** A study's readiness records, by instance id. */
export async function readinessRecords(db: Db, study: string): Promise<ReadinessRecord[]> {
  const rows = await db.selectFrom('readiness_instances').select(['record']).where('study', '=', study).orderBy('id').execute();
  return rows.map((r) => ReadinessRecord.parse(decodeJson(r.record)));
}
