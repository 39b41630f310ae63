import type { InstanceRecord } from '../domain/instance';
import { formatTable } from '../text/table';

const list = (xs: string[] | null) => (xs === null ? null : xs.length ? xs.join(' ') : '(none)');

/** One line per instance: outcome and the three dependency layers. */
export function recordsTable(records: InstanceRecord[]): string {
  return formatTable(
    ['agent', 'lang', 'task', 'trial', 'status', 'depth', 'first error', 'D1 declared', 'D2 installed', 'D3 traced'],
    records.map((r) => [
      r.agent, r.language, r.task, r.trial,
      r.status === 'error' && r.error ? `error (${r.error.kind})` : r.status,
      r.repair_depth, r.first_error_class,
      list(r.declared), list(r.installed), list(r.traced),
    ]),
  );
}
