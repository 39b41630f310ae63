import { callUsage, sumUsage, type AgentUsage } from '../domain/agentUsage';
import type { ReadinessRecord } from '../domain/readiness';
import type { ReadmeRecord } from '../domain/readme';
import { sortedUnique } from './instances';

/** What one agent spent over a README or readiness study. */
export interface AgentUsageRow extends AgentUsage {
  agent: string;
  /** instances whose agent was called (an answer, a session) */
  instances: number;
}

function byAgent<R extends { agent: string }>(records: readonly R[], usageOf: (r: R) => AgentUsage | null): AgentUsageRow[] {
  return sortedUnique(records.map((r) => r.agent)).flatMap((agent) => {
    const usages = records.filter((r) => r.agent === agent).flatMap((r) => usageOf(r) ?? []);
    const sum = sumUsage(usages);
    return sum ? [{ agent, instances: usages.length, ...sum }] : [];
  });
}

/** README diagnosis: each answer the agent was called for is one call (no time: it was not called); tokens and cost as it reported them. */
export function readmeUsageByAgent(records: readonly ReadmeRecord[]): AgentUsageRow[] {
  return byAgent(records, ({ answer: a }) =>
    a && a.duration_s !== null ? callUsage({ tokens_in: a.tokens_in, tokens_out: a.tokens_out, cost_usd: a.cost_usd, duration_ms: a.duration_s * 1000 }) : null,
  );
}

/** Research readiness: each agent session is one call, its time the session's wall time. */
export function readinessUsageByAgent(records: readonly ReadinessRecord[]): AgentUsageRow[] {
  return byAgent(records, (r) =>
    r.session ? callUsage({ tokens_in: r.session.tokens_in, tokens_out: r.session.tokens_out, cost_usd: r.session.cost_usd, duration_ms: r.session.wall_s * 1000 }) : null,
  );
}
