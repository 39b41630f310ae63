import type { Db } from '../db/connect';
import type { AnyStudySpec } from '../db/schema';
import { saveStudy } from '../db/studies';

/**
 * The two activities by which a protocol's workflow stores its results: `record`, one instance's
 * record, checked against the protocol's schema and saved by instance id; `recordStudy`, the study as
 * it was started. The protocol lists them under its own names (`recordReadme`, `recordReadmeStudy`).
 */
export function recordActivities<R, S extends AnyStudySpec>(db: Db, schema: { parse(value: unknown): R }, save: (db: Db, id: string, record: R) => Promise<void>) {
  return {
    async record(input: { instanceId: string; record: R }): Promise<void> {
      await save(db, input.instanceId, schema.parse(input.record));
    },
    async recordStudy(input: { study: S }): Promise<void> {
      await saveStudy(db, input.study);
    },
  };
}

/** The activities of every part, as one object. */
type PartActivities<F extends readonly unknown[]> = F extends readonly [(deps: never) => infer A, ...infer Rest] ? A & PartActivities<Rest> : unknown;

/** A protocol's activities that its parts make from the same dependencies (each part takes what it needs of them), as one object. */
export function activitiesOfParts<D, F extends readonly ((deps: D) => object)[]>(deps: D, ...parts: F): PartActivities<F> {
  return Object.assign({}, ...parts.map((part) => part(deps))) as PartActivities<F>;
}
