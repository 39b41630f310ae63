import type { Db } from '../db/connect';
import type { UsageRecord } from '../domain/agentUsage';
import { failureNotes } from './failureNotes';
import { studyRecordsWithUsage } from './gapUsage';
import { recordsTable, usageNotes } from './records';

/**
 * The table of a gap protocol study's instances (all, or those `only` keeps) as the results database
 * holds them: each with its agent usage and, where it did not succeed, why; a note per agent below.
 */
export async function studyTable(db: Db, study: string, only: (r: UsageRecord) => boolean = () => true): Promise<{ records: number; text: string }> {
  const records = (await studyRecordsWithUsage(db, study)).filter(only);
  const text = [recordsTable(records, await failureNotes(db, records)), ...usageNotes(records)].join('\n');
  return { records: records.length, text };
}
