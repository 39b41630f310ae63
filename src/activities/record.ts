import type { Db } from '../db/connect';
import { saveInstance } from '../db/instances';
import { saveStudy } from '../db/studies';
import { InstanceRecord } from '../domain/instance';
import type { StudyInput } from '../domain/study';
import type { RecordInstanceInput } from './types';

export function createRecordActivities({ db }: { db: Db }) {
  return {
    async recordStudy(study: StudyInput): Promise<void> {
      await saveStudy(db, study);
    },

    /** Upserts by instance id, so a retried activity or a retried instance leaves exactly one record. */
    async recordInstance({ input, record }: RecordInstanceInput): Promise<void> {
      await saveInstance(db, input, InstanceRecord.parse(record));
    },
  };
}
