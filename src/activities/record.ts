import type { BlobStore } from '../db/blobs';
import type { Db } from '../db/connect';
import { saveInstance } from '../db/instances';
import { saveStudy } from '../db/studies';
import { InstanceRecord } from '../domain/instance';
import { isStoredNames } from '../domain/nameList';
import { RECORD_LISTS, type InstanceRecordDraft } from '../domain/record';
import type { InstanceInput, StudyInput } from '../domain/study';
import type { RecordInstanceInput } from './types';

/** The record with every list that travelled as a blob reference read back in full. */
export async function resolvedRecord(blobs: BlobStore, draft: InstanceRecordDraft): Promise<InstanceRecord> {
  const lists = await Promise.all(
    RECORD_LISTS.map(async (field) => {
      const value = draft[field];
      return [field, isStoredNames(value) ? await blobs.getJson<string[]>(value.blob) : value] as const;
    }),
  );
  const versions = draft.installed_versions ? { installed_versions: await blobs.getJson<Record<string, string | null>>(draft.installed_versions.blob) } : {};
  return InstanceRecord.parse({ ...draft, ...Object.fromEntries(lists.filter(([, v]) => v !== undefined)), ...versions });
}

/** Upserts by instance id, so a retried activity or a retried instance leaves exactly one record. */
export async function storeInstanceRecord(db: Db, blobs: BlobStore, input: InstanceInput, draft: InstanceRecordDraft): Promise<void> {
  await saveInstance(db, input, await resolvedRecord(blobs, draft));
}

export function createRecordActivities({ db, blobs }: { db: Db; blobs: BlobStore }) {
  return {
    async recordStudy(study: StudyInput): Promise<void> {
      await saveStudy(db, study);
    },

    async recordInstance({ input, record }: RecordInstanceInput): Promise<void> {
      await storeInstanceRecord(db, blobs, input, record);
    },
  };
}
