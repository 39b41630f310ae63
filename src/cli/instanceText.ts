import type { IterationRow } from '../db/iterations';
import { callUsage, usageOfCalls } from '../domain/agentUsage';
import { describeCoverage } from '../domain/coverage';
import type { InstanceRecord } from '../domain/instance';
import { describeRunSpec } from '../domain/runSpec';
import { errorTail } from '../ecosystems/errorTail';
import { usageLine } from '../metrics/usageCells';
import { confirmationLines } from './confirmationText';

/** Reads a blob's text by its hash. */
export type ReadText = (hash: string) => Promise<string>;

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}

/** The outcome in words: `success after 2 repair(s) (first error MissingDep)`, `failed (...)`, `error`. */
function outcomeLine(r: InstanceRecord): string {
  const first = r.first_error_class ? ` (first error ${r.first_error_class})` : '';
  const gaveUp = r.agent_gave_up ? ', the agent gave up' : '';
  if (r.status === 'success') return r.first_attempt_success ? 'success at the first attempt' : `success after ${r.repair_depth ?? '?'} repair(s)${first}`;
  if (r.status === 'failed') return `failed${r.iterations !== undefined ? ` after ${r.iterations} iteration(s)` : ''}${first}${gaveUp}`;
  return `error (a harness fault, not the agent's)${first}`;
}

/**
 * What the record says of an instance: its outcome; for an `error`, the fault's kind and whole message;
 * what its agent calls spent (tokens, cost and whose estimate, time, version).
 */
export function instanceHeader(id: string, record: InstanceRecord | null, rows: readonly IterationRow[]): string {
  const lines = [`instance ${id}`];
  if (!record) lines.push('status: no record stored yet (running, or ended before its record was written)');
  else {
    lines.push(`status: ${outcomeLine(record)}`);
    if (record.error) {
      const [head, ...rest] = record.error.message.trimEnd().split('\n');
      lines.push(`error: ${record.error.kind}: ${head}`, ...(rest.length ? [indent(rest.join('\n'))] : []));
    } else if (record.status === 'error') lines.push('error: no message recorded');
    if (record.manifest_status && record.manifest_status !== 'present') lines.push(`manifest: ${record.manifest_status}${record.manifest_error ? `: ${record.manifest_error}` : ''}`);
    if (record.coverage) lines.push(`coverage: the final run executed ${describeCoverage(record.coverage)}`);
    lines.push(...confirmationLines(record));
  }
  const usage = usageOfCalls(rows.map((r) => r.agent));
  lines.push(usage ? `agent: ${usage.calls} call(s), ${usageLine(usage)}` : 'agent: no call recorded');
  if (rows.length === 0) lines.push(`no iteration recorded${record?.status === 'error' ? ': the fault came before the first agent call was stored' : ''}`);
  return lines.join('\n');
}

/**
 * One iteration: the agent call (what it spent, its answer), then the execution (the entry chosen
 * and why, how it was run, the outcome and its class, the end of the failing step's output); with
 * `withLog`, the whole run log.
 */
export async function describeIteration(row: IterationRow, read: ReadText, withLog: boolean): Promise<string> {
  const lines = [`== iteration ${row.iteration}${row.iteration === 0 ? ' (Gen)' : ' (Repair)'}`];
  const agent = row.agent;
  if (agent) lines.push(`agent call: ${usageLine(callUsage(agent))}`);
  if (agent?.output_error_hash) lines.push(`answer: unusable after ${agent.samples ?? 1} sample(s): ${errorTail(await read(agent.output_error_hash), 5)}`);
  else if (row.filesHash) lines.push(`answer: files ${row.filesHash}${agent?.samples && agent.samples > 1 ? ` (after ${agent.samples} samples)` : ''}`);
  const x = row.execution;
  if (!x) {
    if (row.filesHash) lines.push('execution: not recorded');
    return lines.join('\n');
  }
  if (x.entry) lines.push(`entry: ${x.entry.command} (${x.entry.reason})`);
  if (x.runSpec) lines.push(`run: ${describeRunSpec(x.runSpec)}`);
  if (x.success) lines.push(`outcome: success (${x.runKind ?? 'program'})`);
  else {
    const extra = [x.timeoutKind && `timeout ${x.timeoutKind}`, x.environment && `rule ${x.environment.rule}${x.environment.host ? `, host ${x.environment.host}` : ''}${x.environment.service ? `, service ${x.environment.service}` : ''}`].filter(Boolean);
    lines.push(`outcome: failed at ${x.failedStep ?? '?'}, class ${x.errorClass ?? 'unclassified'}, exit ${x.exitCode ?? '-'}${extra.length ? ` (${extra.join('; ')})` : ''}`);
    if (x.errorHash) lines.push('error tail:', indent(errorTail(await read(x.errorHash), 15)));
  }
  if (x.coverage) lines.push(`coverage: ${describeCoverage(x.coverage)}`);
  if (withLog) lines.push('log:', indent(await read(x.artefacts.log)));
  return lines.join('\n');
}

/** The whole text of `envgap instance show`: the record's account, then each iteration. */
export async function instanceText(id: string, record: InstanceRecord | null, rows: readonly IterationRow[], read: ReadText, withLog: boolean): Promise<string> {
  const parts = [instanceHeader(id, record, rows)];
  for (const row of rows) parts.push(await describeIteration(row, read, withLog));
  return parts.join('\n') + '\n';
}
