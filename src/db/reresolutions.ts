import type { ReresolutionRecord } from '../domain/reresolution';
import type { Db } from './connect';
import { decodeJson, encodeJson } from './json';

/** The `reresolutions` table: one row per (instance, day), so a retried activity or a second run that day replaces its own. */
export async function saveReresolution(db: Db, id: string, record: ReresolutionRecord): Promise<void> {
  const row = { study: record.study, instance_id: record.instance_id, resolved_on: record.resolved_on, status: record.status, record: encodeJson(record) };
  await db
    .insertInto('reresolutions')
    .values({ id, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet({ ...row, updated_at: new Date() }))
    .execute();
}

/** A study's re-resolutions of one day, by instance id. */
export async function studyReresolutions(db: Db, study: string, on: string): Promise<ReresolutionRecord[]> {
  const rows = await db.selectFrom('reresolutions').select(['record']).where('study', '=', study).where('resolved_on', '=', on).orderBy('instance_id').execute();
  return rows.map((r) => decodeJson(r.record));
}
