import type { InstanceRecord } from '../domain/instance';

/**
 * A task catalog's a-priori standard-library sufficiency: `<language>/<task>` -> sufficient
 * (src/catalog/stdlibAnnotation.ts builds it from catalog/tasks.json). A task it does not name is unknown.
 */
export type StdlibAnnotation = Readonly<Record<string, boolean>>;

/**
 * M7's rule (docs/metrics.md) where neither the record nor the catalog annotates the task: a task is
 * standard-library sufficient in a language when any run of it there (any agent, any trial) succeeded
 * with an empty manifest. Keys are `<language>/<task>`.
 */
export function stdlibSufficientTasks(records: readonly InstanceRecord[]): Set<string> {
  const sufficient = new Set<string>();
  for (const r of records) {
    if (r.status === 'success' && (r.declared_count ?? r.declared?.length) === 0) sufficient.add(`${r.language}/${r.task}`);
  }
  return sufficient;
}

/**
 * Fills `stdlib_sufficient` where a record leaves it null: from the catalog's annotation where it names
 * the task in that language, else by the rule over the runs. Annotated records keep their value.
 */
export function withStdlibSufficiency<T extends InstanceRecord>(records: readonly T[], annotation: StdlibAnnotation = {}): T[] {
  if (records.every((r) => r.stdlib_sufficient !== null)) return [...records];
  const key = (r: T) => `${r.language}/${r.task}`;
  const annotated = (r: T) => Object.prototype.hasOwnProperty.call(annotation, key(r));
  const sufficient = records.some((r) => r.stdlib_sufficient === null && !annotated(r)) ? stdlibSufficientTasks(records) : new Set<string>();
  return records.map((r) => (r.stdlib_sufficient !== null ? r : { ...r, stdlib_sufficient: annotated(r) ? annotation[key(r)] : sufficient.has(key(r)) }));
}
