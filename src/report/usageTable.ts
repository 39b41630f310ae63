import { usageCells, usageHead, type UsageTableRow } from '../metrics/usageTextTable';
import type { Table } from './figure';

/** What the agents spent, as a report table: tokens in and out, cost and whose estimate it is, agent time, calls and versions. */
export function usageTable(id: string, title: string, caption: string, rows: readonly UsageTableRow[]): Table {
  const withLanguage = rows.some((r) => r.language !== undefined);
  return {
    kind: 'table',
    id,
    title,
    caption: `${caption} Cost in US dollars, (n/m) where only n of m calls reported one; “-” where no call reported the figure (unknown, not 0).`,
    head: usageHead(withLanguage),
    rows: rows.map((r) => usageCells(r, withLanguage)),
  };
}
