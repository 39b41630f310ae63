import { ReadmeRecord } from '../domain/readme';
import type { Db } from './connect';
import { encodeJson } from './json';
import { protocolRecords, saveProtocolRecordRow } from './protocolRecords';

/** The `readme_instances` table: one record per instance id; a retried instance replaces its own. */
export async function saveReadmeRecord(db: Db, id: string, record: ReadmeRecord): Promise<void> {
  const row = { study: record.study, agent: record.agent, instance: record.instance, trial: record.trial, status: record.status, record: encodeJson(record) };
  await saveProtocolRecordRow(db, 'readme_instances', id, row);
}

/** A study's README records, by instance id. */
export async function readmeRecords(db: Db, study: string): Promise<ReadmeRecord[]> {
  return protocolRecords(db, 'readme_instances', study, ReadmeRecord);
}
