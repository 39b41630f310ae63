import type { AgentUsage } from '../domain/agentUsage';

// Agent usage as people read it: a figure no call reported shows as `-` (unknown), never as 0.

/** A token count in a table cell: 950, 12.3k, 4.56M. */
export function tokensCell(n: number | null): string {
  if (n === null) return '-';
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

/** Tokens in and out in one cell: `12.3k/4.5k`; `-` where neither was reported. */
export function tokensInOutCell(u: Pick<AgentUsage, 'tokens_in' | 'tokens_out'> | undefined): string {
  if (!u || (u.tokens_in === null && u.tokens_out === null)) return '-';
  return `${tokensCell(u.tokens_in)}/${tokensCell(u.tokens_out)}`;
}

const dollars = (usd: number) => usd.toFixed(usd < 10 ? 4 : 2);

/** A cost in US dollars for a cell: `0.1234`; with `(3/4)` where only some calls reported one; `-` where none did. */
export function costCell(u: Pick<AgentUsage, 'cost_usd' | 'cost_calls' | 'calls'> | undefined): string {
  if (!u || u.cost_usd === null) return '-';
  return u.cost_calls < u.calls ? `${dollars(u.cost_usd)} (${u.cost_calls}/${u.calls})` : dollars(u.cost_usd);
}

/** Seconds for a cell: `45.2`; `-` without a usage. */
export function secondsCell(u: Pick<AgentUsage, 'agent_time_s'> | undefined): string {
  return u ? u.agent_time_s.toFixed(1) : '-';
}

/** Whose estimate a cost is, in words. */
export function costSourceText(u: Pick<AgentUsage, 'cost_usd' | 'cost_sources'>): string {
  if (u.cost_usd === null) return 'no cost reported';
  return u.cost_sources.length ? `estimate: ${u.cost_sources.join('; ')}` : 'whose estimate not reported';
}

const count = (n: number | null) => (n === null ? 'not reported' : n.toLocaleString('en-US'));

/**
 * A usage's figures in one line: `tokens in 12,345, tokens out 678, cost $0.1234 (estimate: …), agent time 45.2 s, version claude-code 2.1.332`.
 */
export function usageLine(u: AgentUsage): string {
  const cost = u.cost_usd === null ? 'cost not reported' : `cost $${dollars(u.cost_usd)}${u.cost_calls < u.calls ? ` from ${u.cost_calls} of ${u.calls} calls` : ''} (${costSourceText(u)})`;
  return [
    `tokens in ${count(u.tokens_in)}`,
    `tokens out ${count(u.tokens_out)}`,
    cost,
    `agent time ${u.agent_time_s.toFixed(1)} s`,
    `version ${u.agent_versions.length ? u.agent_versions.join(', ') : 'not reported'}`,
  ].join(', ');
}
