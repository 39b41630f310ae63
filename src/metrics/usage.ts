import { sumUsage, type AgentUsage, type UsageRecord } from '../domain/agentUsage';
import { LANGUAGES, type Language } from '../domain/instance';
import { sortedUnique } from './instances';

/** What the agent spent in one (agent, language): its instances' usage summed. */
export interface UsageRow extends AgentUsage {
  agent: string;
  language: Language;
  /** instances with a usage (every trial, `error` instances too: their calls were made) */
  instances: number;
}

/**
 * Tokens, cost, agent time and calls per agent and language, over every record that carries its
 * usage (all trials and statuses: what was spent was spent). A figure no call reported stays null;
 * records without usage (imported ones) add nothing, and a cell with none has no row.
 */
export function usageByAgentLanguage(records: readonly UsageRecord[]): UsageRow[] {
  const withUsage = records.filter((r): r is UsageRecord & { agent_usage: AgentUsage } => r.agent_usage !== undefined);
  return sortedUnique(withUsage.map((r) => r.agent)).flatMap((agent) =>
    LANGUAGES.flatMap((language) => {
      const group = withUsage.filter((r) => r.agent === agent && r.language === language);
      const sum = sumUsage(group.map((r) => r.agent_usage));
      return sum ? [{ agent, language, instances: group.length, ...sum }] : [];
    }),
  );
}
