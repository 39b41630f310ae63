import type { Db } from '../db/connect';
import { InstanceRecord } from '../domain/instance';
import type { StudyInput } from '../domain/study';
import type { RecordInstanceInput } from './types';

export function createRecordActivities({ db }: { db: Db }) {
  return {
    async recordStudy(study: StudyInput): Promise<void> {
      const spec = JSON.stringify(study);
      await db
        .insertInto('studies')
        .values({ name: study.name, spec })
        .onConflict((oc) => oc.column('name').doUpdateSet({ spec }))
        .execute();
    },

    /** Upserts by instance id, so a retried activity or a retried instance leaves exactly one record. */
    async recordInstance({ input, record }: RecordInstanceInput): Promise<void> {
      const valid = InstanceRecord.parse(record);
      const row = {
        id: input.instanceId,
        study: valid.study,
        agent: valid.agent,
        language: valid.language,
        task: valid.task,
        trial: valid.trial,
        status: valid.status,
        input: JSON.stringify(input),
        record: JSON.stringify(valid),
      };
      await db
        .insertInto('instances')
        .values(row)
        .onConflict((oc) => oc.column('id').doUpdateSet({ status: row.status, input: row.input, record: row.record, updated_at: new Date() }))
        .execute();
    },
  };
}
