import { z } from 'zod';
import { TOKEN_SPEND } from './tokenSpend';
import type { InstanceRecord } from './instance';

/**
 * What agent calls spent: tokens, cost, time, and the agent's version (docs/record.md, "Agent usage").
 * A figure no call reported is null, never 0: `tokens_in`, `tokens_out` and `cost_usd` sum the calls
 * that reported one; `cost_calls` says how many of the `calls` reported a cost, so a partial sum shows.
 * `cost_sources` says whose estimate the cost is (the agent's own list-price estimate, envgap's, ...).
 */
export const AgentUsage = z.object({
  calls: z.number().int().nonnegative(),
  ...TOKEN_SPEND,
  cost_calls: z.number().int().nonnegative(),
  /** The agent's own time: the calls' wall time, in seconds. */
  agent_time_s: z.number().nonnegative(),
  /** The agent versions the calls reported (`claude-code 2.1.332`), distinct, sorted; [] where none did. */
  agent_versions: z.array(z.string()),
  /** Whose estimates the reported costs are, distinct, sorted; [] where no call said. */
  cost_sources: z.array(z.string()),
});
export type AgentUsage = z.infer<typeof AgentUsage>;

/** A gap protocol record with its agent usage beside it (`envgap export` writes it; absent in imported records). */
export type UsageRecord = InstanceRecord & { agent_usage?: AgentUsage };

/** The figures one agent call reports (src/db/schema.ts AgentCallMeta holds them per iteration). */
export interface AgentCallFigures {
  tokens_in: number | null;
  tokens_out: number | null;
  cost_usd: number | null;
  duration_ms: number;
  agent_version?: string;
  cost_source?: string | null;
}

const plus = (a: number | null, b: number | null, digits: number): number | null => {
  if (a === null) return b;
  if (b === null) return a;
  const scale = 10 ** digits;
  return Math.round((a + b) * scale) / scale;
};
const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])].sort();

/** One call's usage. */
export function callUsage(c: AgentCallFigures): AgentUsage {
  return {
    calls: 1,
    tokens_in: c.tokens_in,
    tokens_out: c.tokens_out,
    cost_usd: c.cost_usd,
    cost_calls: c.cost_usd === null ? 0 : 1,
    agent_time_s: c.duration_ms / 1000,
    agent_versions: c.agent_version ? [c.agent_version] : [],
    cost_sources: c.cost_source && c.cost_usd !== null ? [c.cost_source] : [],
  };
}

/** Two usages together: figures added where either reported one, null where neither did. */
export function addUsage(a: AgentUsage, b: AgentUsage): AgentUsage {
  return {
    calls: a.calls + b.calls,
    tokens_in: plus(a.tokens_in, b.tokens_in, 0),
    tokens_out: plus(a.tokens_out, b.tokens_out, 0),
    cost_usd: plus(a.cost_usd, b.cost_usd, 6),
    cost_calls: a.cost_calls + b.cost_calls,
    agent_time_s: plus(a.agent_time_s, b.agent_time_s, 3)!,
    agent_versions: union(a.agent_versions, b.agent_versions),
    cost_sources: union(a.cost_sources, b.cost_sources),
  };
}

/** The usage of several calls or instances together; null for none. */
export function sumUsage(usages: readonly AgentUsage[]): AgentUsage | null {
  return usages.length === 0 ? null : usages.reduce(addUsage);
}

/** An instance's usage from its iterations' agent calls (null-free iterations only); null where it made none. */
export function usageOfCalls(calls: readonly (AgentCallFigures | null)[]): AgentUsage | null {
  return sumUsage(calls.filter((c): c is AgentCallFigures => c !== null).map(callUsage));
}
