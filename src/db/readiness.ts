import { ReadinessRecord } from '../domain/readiness';
import type { Db } from './connect';
import { encodeJson } from './json';
import { protocolRecords, saveProtocolRecordRow } from './protocolRecords';

/** The `readiness_instances` table: one record per instance id; a retried instance replaces its own. */
export async function saveReadinessRecord(db: Db, id: string, record: ReadinessRecord): Promise<void> {
  const row = { study: record.study, agent: record.agent, repo: record.repo, trial: record.trial, status: record.status, record: encodeJson(record) };
  await saveProtocolRecordRow(db, 'readiness_instances', id, row);
}

/** A study's readiness records, by instance id. */
export async function readinessRecords(db: Db, study: string): Promise<ReadinessRecord[]> {
  return protocolRecords(db, 'readiness_instances', study, ReadinessRecord);
}
