import { BlobStore } from '../db/blobs';
import type { Db } from '../db/connect';
import { instanceIterations, type IterationRow } from '../db/iterations';
import { instanceId, type InstanceRecord } from '../domain/instance';
import { errorLine, firstLine } from '../text/oneLine';
import type { FailureNote } from './records';

type ReadText = (hash: string) => Promise<string>;

const readOr = async (read: ReadText, hash: string, pick: (text: string) => string) => {
  try {
    return pick(await read(hash));
  } catch {
    return `(its error output ${hash} is not in the database)`;
  }
};

/**
 * Why an instance's last failed iteration failed, from its iterations: an unusable answer's message
 * (AgentOutput), or the execution's class and the telling line of its error output. Null where no
 * iteration failed.
 */
export async function failureNoteOf(rows: readonly IterationRow[], read: ReadText): Promise<FailureNote | null> {
  for (const row of [...rows].sort((a, b) => b.iteration - a.iteration)) {
    if (row.agent?.output_error_hash) return { errorClass: 'AgentOutput', line: await readOr(read, row.agent.output_error_hash, (t) => firstLine(t)) };
    const x = row.execution;
    if (x && !x.success) {
      const line = x.errorHash ? await readOr(read, x.errorHash, (t) => errorLine(t)) : `failed at ${x.failedStep ?? '?'}, exit ${x.exitCode ?? '-'}`;
      return { errorClass: x.errorClass ?? 'unclassified', line };
    }
  }
  return null;
}

/** The failure notes of the failed records, by instance id, from the results database. */
export async function failureNotes(db: Db, records: readonly InstanceRecord[]): Promise<Map<string, FailureNote>> {
  const blobs = new BlobStore(db);
  const notes = new Map<string, FailureNote>();
  for (const r of records) {
    if (r.status !== 'failed') continue;
    const id = instanceId(r);
    const note = await failureNoteOf(await instanceIterations(db, id), (hash) => blobs.getText(hash));
    if (note) notes.set(id, note);
  }
  return notes;
}
