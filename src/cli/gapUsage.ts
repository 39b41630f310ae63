import type { Db } from '../db/connect';
import { studyAgentCalls } from '../db/iterations';
import type { AgentCallMeta } from '../db/schema';
import { studyRecords } from '../db/instances';
import { AgentUsage, usageOfCalls, type UsageRecord } from '../domain/agentUsage';
import { instanceId, type InstanceRecord } from '../domain/instance';
import { jsonLines, parsedOrThrow } from '../importers/jsonl';

/**
 * The agent usage of gap protocol records (tokens, cost, time, versions): summed from each instance's
 * agent calls in the results database, or read back from the `agent_usage` of exported JSON lines.
 */

/** Each recorded instance's usage, from its iterations' agent calls, by instance id. */
export async function studyUsage(db: Db, study: string): Promise<Map<string, AgentUsage>> {
  const byInstance = new Map<string, (AgentCallMeta | null)[]>();
  for (const call of await studyAgentCalls(db, study)) {
    const calls = byInstance.get(call.instanceId) ?? [];
    calls.push(call.agent);
    byInstance.set(call.instanceId, calls);
  }
  const usage = new Map<string, AgentUsage>();
  for (const [id, calls] of byInstance) {
    const u = usageOfCalls(calls);
    if (u) usage.set(id, u);
  }
  return usage;
}

/** The records with their usage beside them (`agent_usage`, last), where one is known. */
export function withUsage<R extends InstanceRecord>(records: readonly R[], usage: ReadonlyMap<string, AgentUsage>): (R & { agent_usage?: AgentUsage })[] {
  return records.map((r) => {
    const u = usage.get(instanceId(r));
    return u ? { ...r, agent_usage: u } : r;
  });
}

/**
 * The `agent_usage` of the instance records in JSON lines, by instance id (the record's schema leaves
 * it out when parsing); a malformed one names its line.
 */
export function usageOfJsonl(text: string, source: string): Map<string, AgentUsage> {
  const usage = new Map<string, AgentUsage>();
  for (const { value, where } of jsonLines(text, source)) {
    const v = value as Partial<InstanceRecord> & { agent_usage?: unknown };
    if (v?.schema !== 'envgap.instance/v1' || v.agent_usage === undefined) continue;
    usage.set(instanceId(v as InstanceRecord), parsedOrThrow(AgentUsage, v.agent_usage, `${where}: agent_usage`));
  }
  return usage;
}

/** A study's records from the results database, each with its usage. */
export async function studyRecordsWithUsage(db: Db, study: string): Promise<UsageRecord[]> {
  return withUsage(await studyRecords(db, study), await studyUsage(db, study));
}

/** Records checked against their schema (which leaves `agent_usage` out) given back the usage their unchecked values carried, index by index. */
export function keepUsage(checked: readonly InstanceRecord[], unchecked: readonly UsageRecord[]): UsageRecord[] {
  return checked.map((r, i) => {
    const u = unchecked[i]?.agent_usage;
    return u ? { ...r, agent_usage: u } : r;
  });
}
