import type { ReadinessStudyInput } from '../domain/readinessStudy';
import type { ReadmeStudyInput } from '../domain/readmeStudy';
import type { StudyInput } from '../domain/study';
import type { Db } from './connect';
import { decodeJson, encodeJson } from './json';

/** The `studies` table: one row per study name, holding the study as it was started (its spec). */

/** Inserts the study (of any protocol), or replaces the spec of a study of the same name. */
export async function saveStudy(db: Db, study: StudyInput | { name: string; protocol: string }): Promise<void> {
  const spec = encodeJson(study);
  await db
    .insertInto('studies')
    .values({ name: study.name, spec })
    .onConflict((oc) => oc.column('name').doUpdateSet({ spec }))
    .execute();
}

/** The spec of a study, or null when no study of that name was recorded. */
export async function findStudy(db: Db, name: string): Promise<StudyInput | null> {
  const row = await db.selectFrom('studies').select(['spec']).where('name', '=', name).executeTakeFirst();
  return row ? decodeJson<StudyInput>(row.spec) : null;
}

/** A study of any protocol, as it was started: `protocol` tells which (absent: the environment gap protocol). */
export type AnyStudySpec = (StudyInput & { protocol?: undefined }) | ReadmeStudyInput | ReadinessStudyInput;

export async function findAnyStudy(db: Db, name: string): Promise<AnyStudySpec | null> {
  const row = await db.selectFrom('studies').select(['spec']).where('name', '=', name).executeTakeFirst();
  return row ? decodeJson<AnyStudySpec>(row.spec) : null;
}
