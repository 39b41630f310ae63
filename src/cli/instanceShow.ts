import { BlobStore } from '../db/blobs';
import { findInstanceRecord } from '../db/instances';
import { instanceIterations } from '../db/iterations';
import { parseInstanceId } from '../domain/instance';
import { loadSettings } from '../infra/settings';
import { openDb } from './context';
import { instanceText } from './instanceText';

/**
 * An instance from the results database: its record's outcome (an error's kind and message) and what
 * its agent calls spent, then what happened in each iteration: the agent call and its answer, then the
 * execution (the entry chosen and why, how it was run, the outcome and its class, the end of the
 * failing step's output); with `log`, each iteration's whole run log.
 */
export async function showInstance(id: string, opts: { log?: boolean }): Promise<void> {
  parseInstanceId(id);
  const db = await openDb(loadSettings());
  try {
    const [record, rows] = await Promise.all([findInstanceRecord(db, id), instanceIterations(db, id)]);
    if (!record && rows.length === 0) throw new Error(`instance ${id} has no recorded iteration in the results database, and no record`);
    const blobs = new BlobStore(db);
    process.stdout.write(await instanceText(id, record, rows, (hash) => blobs.getText(hash), opts.log === true));
  } finally {
    await db.destroy();
  }
}
