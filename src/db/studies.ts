import type { StudyInput } from '../domain/study';
import type { Db } from './connect';
import { decodeJson, encodeJson } from './json';
import type { AnyStudySpec } from './schema';

/** The `studies` table: one row per study name, holding the study as it was started (its spec). */

/** Inserts the study (of any protocol), or replaces the spec of a study of the same name. */
export async function saveStudy(db: Db, study: AnyStudySpec): Promise<void> {
  const spec = encodeJson(study);
  await db
    .insertInto('studies')
    .values({ name: study.name, spec })
    .onConflict((oc) => oc.column('name').doUpdateSet({ spec }))
    .execute();
}

/** The spec of an environment gap study, or null when no study of that name (and protocol) was recorded. */
export async function findStudy(db: Db, name: string): Promise<StudyInput | null> {
  const spec = await findAnyStudy(db, name);
  return spec && spec.protocol === undefined ? spec : null;
}

/** A study of any protocol, as it was started: `protocol` tells which (absent: the environment gap protocol). */
export async function findAnyStudy(db: Db, name: string): Promise<AnyStudySpec | null> {
  const row = await db.selectFrom('studies').select(['spec']).where('name', '=', name).executeTakeFirst();
  return row ? decodeJson(row.spec) : null;
}
