import type { InstanceRecord } from '../domain/instance';

/**
 * M7's rule (docs/metrics.md) where a record does not annotate the task property: a task is
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

/** Fills `stdlib_sufficient` where a record leaves it null; annotated records keep their value. */
export function withStdlibSufficiency<T extends InstanceRecord>(records: readonly T[]): T[] {
  if (records.every((r) => r.stdlib_sufficient !== null)) return [...records];
  const sufficient = stdlibSufficientTasks(records);
  return records.map((r) => (r.stdlib_sufficient === null ? { ...r, stdlib_sufficient: sufficient.has(`${r.language}/${r.task}`) } : r));
}
