import { BlobStore } from '../db/blobs';
import { instanceIterations, type IterationRow } from '../db/iterations';
import { parseInstanceId } from '../domain/instance';
import { describeRunSpec } from '../domain/runSpec';
import { errorTail } from '../ecosystems/errorTail';
import { loadSettings } from '../infra/settings';
import { openDb } from './context';

/**
 * What happened in each iteration of an instance, from the results database: the answer (files,
 * samples), then the execution (the entry chosen and why, how it was run, the outcome and its class,
 * the end of the failing step's output); with `log`, each iteration's whole run log.
 */
export async function showInstance(id: string, opts: { log?: boolean }): Promise<void> {
  parseInstanceId(id);
  const db = await openDb(loadSettings());
  try {
    const rows = await instanceIterations(db, id);
    if (rows.length === 0) throw new Error(`instance ${id} has no recorded iteration in the results database`);
    const blobs = new BlobStore(db);
    for (const row of rows) process.stdout.write((await describeIteration(row, blobs, opts.log === true)) + '\n');
  } finally {
    await db.destroy();
  }
}

async function describeIteration(row: IterationRow, blobs: BlobStore, withLog: boolean): Promise<string> {
  const lines = [`== iteration ${row.iteration}${row.iteration === 0 ? ' (Gen)' : ' (Repair)'}`];
  const agent = row.agent;
  if (agent?.output_error_hash) lines.push(`answer: unusable after ${agent.samples ?? 1} sample(s): ${errorTail(await blobs.getText(agent.output_error_hash), 5)}`);
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
    if (x.errorHash) lines.push('error tail:', indent(errorTail(await blobs.getText(x.errorHash), 15)));
  }
  if (withLog) lines.push('log:', indent(await blobs.getText(x.artefacts.log)));
  return lines.join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
