import type { UsageRecord } from '../domain/agentUsage';
import { instanceId, type InstanceRecord } from '../domain/instance';
import { firstLine } from '../text/oneLine';
import { formatTable } from '../text/table';
import { costCell, secondsCell, tokensInOutCell } from '../metrics/usageCells';

const list = (xs: string[] | null) => (xs === null ? null : xs.length ? xs.join(' ') : '(none)');

/** Why a failed instance failed: the class of its last failed iteration and the telling line of its error. */
export interface FailureNote {
  errorClass: string;
  line: string;
}

/**
 * Why an instance did not succeed, in one line: an `error` instance's kind and the first line of its
 * message; a failed one's last failure (class and line) where known, else its first error class.
 */
export function whyCell(r: InstanceRecord, failure: FailureNote | undefined): string | null {
  if (r.status === 'error') return r.error ? `${r.error.kind}: ${firstLine(r.error.message)}` : 'error (no message recorded)';
  if (r.status === 'failed') return failure ? `${failure.errorClass}: ${failure.line}` : r.first_error_class;
  return null;
}

/**
 * One line per instance: outcome, the three dependency layers, what the agent spent (tokens in/out,
 * cost in US dollars, agent seconds; `-` where not reported) and, for an instance that did not
 * succeed, why, in one line.
 */
export function recordsTable(records: readonly UsageRecord[], failures: ReadonlyMap<string, FailureNote> = new Map()): string {
  return formatTable(
    ['agent', 'lang', 'task', 'trial', 'status', 'depth', 'first error', 'D1 declared', 'D2 installed', 'D3 traced', 'tokens in/out', 'cost $', 'agent s', 'why'],
    records.map((r) => [
      r.agent, r.language, r.task, r.trial, r.status,
      r.repair_depth, r.first_error_class,
      list(r.declared), list(r.installed), list(r.traced),
      tokensInOutCell(r.agent_usage), costCell(r.agent_usage), secondsCell(r.agent_usage),
      whyCell(r, failures.get(instanceId(r))),
    ]),
  );
}

/** Under the table, a line per agent that reported any: its versions and whose estimates its costs are. */
export function usageNotes(records: readonly UsageRecord[]): string[] {
  const agents = [...new Set(records.map((r) => r.agent))].sort();
  return agents.flatMap((agent) => {
    const usages = records.filter((r) => r.agent === agent && r.agent_usage).map((r) => r.agent_usage!);
    const versions = [...new Set(usages.flatMap((u) => u.agent_versions))].sort();
    const sources = [...new Set(usages.flatMap((u) => u.cost_sources))].sort();
    if (versions.length === 0 && sources.length === 0) return [];
    const cost = sources.length ? `estimated by ${sources.join('; ')}` : usages.some((u) => u.cost_usd !== null) ? 'whose estimate not reported' : 'not reported';
    return [`${agent}: version ${versions.join(', ') || 'not reported'}; cost ${cost}`];
  });
}
