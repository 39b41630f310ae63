import { ApplicationFailure } from '@temporalio/activity';
import type { BlobStore } from '../db/blobs';
import type { Db } from '../db/connect';
import { findInstanceRow, replaceInstanceRecord } from '../db/instances';
import { instanceIterations } from '../db/iterations';
import type { ConfirmationFields, ConfirmationPlan, ConfirmationSubject } from '../domain/confirmation/types';
import { InstanceRecord } from '../domain/instance';
import { isStoredNames, type NameList } from '../domain/nameList';
import type { ProjectFiles } from '../domain/files';
import { confirmationPlan } from '../ecosystems/removal/plan';

export interface ConfirmationSubjectInput {
  instanceId: string;
  /** Confirm again an instance whose record has a confirmation already. */
  again?: boolean;
}

export interface StoreConfirmationInput {
  instanceId: string;
  fields: ConfirmationFields;
}

export function createConfirmationRecordActivities({ db, blobs }: { db: Db; blobs: BlobStore }) {
  const names = async (list: NameList | null): Promise<string[] | null> => (list === null ? null : isStoredNames(list) ? blobs.getJson<string[]>(list.blob) : list);
  return {
    /**
     * Which names an instance's confirmation tries (src/ecosystems/removal/plan.ts), from its layers
     * (blob references read back) and its final project.
     */
    async planConfirmation(subject: ConfirmationSubject): Promise<ConfirmationPlan> {
      const [declared, installed, traced, files] = await Promise.all([names(subject.declared), names(subject.installed), names(subject.traced), blobs.getJson<ProjectFiles>(subject.filesHash)]);
      return confirmationPlan(subject.language, files, { declared: declared ?? [], installed, traced: traced ?? [] });
    },

    /**
     * What a finished instance's confirmation needs, from the database: its final iteration's project
     * and run, its limits and its layers. Null where there is nothing to confirm: no record, not a
     * success, no traced set, or a confirmation already there (unless `again`).
     */
    async confirmationSubject({ instanceId, again }: ConfirmationSubjectInput): Promise<ConfirmationSubject | null> {
      const row = await findInstanceRow(db, instanceId);
      if (!row) return null;
      const { input, record } = row;
      if (record.status !== 'success' || record.repair_depth === null || record.declared === null || record.traced === null) return null;
      if (record.confirmation && !again) return null;
      // The successful iteration ends the instance: it is the final one, and repair_depth is its number.
      const final = (await instanceIterations(db, instanceId)).find((i) => i.iteration === record.repair_depth);
      if (!final?.filesHash) throw ApplicationFailure.nonRetryable(`${instanceId}: the successful iteration ${record.repair_depth} has no stored project`, 'NoFinalProject');
      const run = final.execution?.runSpec;
      // The study's date, as its instance was given it (else as its provenance recorded it): the trials install as its Execute did.
      const resolveAsOf = input.resolveAsOf ?? record.provenance?.resolve_as_of?.date;
      return {
        instanceId,
        language: record.language,
        filesHash: final.filesHash,
        ...(run ? { run } : {}),
        limits: input.limits,
        declared: record.declared,
        installed: record.installed,
        traced: record.traced,
        ...(resolveAsOf ? { resolveAsOf } : {}),
      };
    },

    /** Puts a confirmation into an instance's stored record, replacing an earlier one's fields. */
    async storeConfirmation({ instanceId, fields }: StoreConfirmationInput): Promise<void> {
      const row = await findInstanceRow(db, instanceId);
      if (!row) throw ApplicationFailure.nonRetryable(`${instanceId}: no stored record to add the confirmation to`, 'NoRecord');
      const { phantom_check: _p, bloat_check: _b, confirmation: _c, ...rest } = row.record;
      await replaceInstanceRecord(db, instanceId, InstanceRecord.parse({ ...rest, ...fields }));
    },
  };
}
