import type { AgentUsage } from '../domain/agentUsage';
import { formatTable } from '../text/table';
import { costCell, secondsCell, tokensCell } from './usageCells';

/** A row of what an agent spent: per agent, or per agent and language. */
export type UsageTableRow = AgentUsage & { agent: string; language?: string; instances: number };

/** The columns of a usage table (with a language column where any row has a language). */
export function usageHead(withLanguage: boolean): string[] {
  return ['agent', ...(withLanguage ? ['language'] : []), 'instances', 'calls', 'tokens in', 'tokens out', 'cost $', 'cost estimate by', 'agent s', 'version'];
}

/** A usage row's cells, `-` where no call reported a figure (unknown, never 0). */
export function usageCells(u: UsageTableRow, withLanguage: boolean): string[] {
  return [
    u.agent, ...(withLanguage ? [u.language ?? '-'] : []), String(u.instances), String(u.calls), tokensCell(u.tokens_in), tokensCell(u.tokens_out), costCell(u),
    u.cost_usd === null ? '-' : u.cost_sources.join('; ') || 'not reported', secondsCell(u), u.agent_versions.join(', ') || '-',
  ];
}

/**
 * What the agents spent as a text table: calls, tokens in and out, cost in US dollars (with (n/m)
 * where n of m calls reported one) and whose estimate it is, agent seconds, versions.
 */
export function usageTextTable(rows: readonly UsageTableRow[]): string {
  const withLanguage = rows.some((r) => r.language !== undefined);
  return formatTable(usageHead(withLanguage), rows.map((u) => usageCells(u, withLanguage)));
}
