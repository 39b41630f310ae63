import * as fs from 'node:fs';
import type { WorkflowExecutionDescription } from '@temporalio/client';
import { findAnyStudy } from '../db/studies';
import type { AgentUsage } from '../domain/agentUsage';
import type { StudyProgress } from '../workflows/engine';
import { loadSettings } from '../infra/settings';
import { openContext, openDb, type CliContext } from './context';
import { retryInstance } from './instance';
import { studyUsage } from './gapUsage';
import { countsLine, protocolOfSpec, protocolOfWorkflowType, protocolWithRecords, type ProtocolStudies } from './protocols';
import { say } from './say';
import { uiLink } from './uiLink';
import { describeOrNull } from './workflowStatus';

/**
 * Study control for the studies of every protocol: status, pause, resume, retry-errors, cancel and
 * export work alike on an environment gap, a README and a readiness study (all stand on the study
 * engine, src/workflows/engine.ts).
 */

/** The protocol of a study: from its workflow where Temporal knows it, else from the study's row in the database. */
async function protocolOf(ctx: CliContext, name: string, d: WorkflowExecutionDescription | null): Promise<ProtocolStudies> {
  const byType = d ? protocolOfWorkflowType(d.type) : null;
  if (byType) return byType;
  if (d) throw new Error(`"${name}" is a ${d.type} workflow, not a study`);
  const spec = ctx.db ? await findAnyStudy(ctx.db, name) : null;
  if (!spec) throw new Error(`no study named "${name}" on ${ctx.temporal.address}${ctx.db ? ' or in the results database' : ''}`);
  return protocolOfSpec(spec);
}

/** A finished study's progress from its result; studies that returned only counts (README and readiness before the engine) still answer. */
function progressOfResult(r: { progress?: StudyProgress; done?: number; counts?: Record<string, number> }): StudyProgress {
  if (r.progress) return r.progress;
  const done = r.done ?? 0;
  return { total: done, done, running: [], counts: r.counts ?? {} };
}

export async function studyStatus(name: string): Promise<void> {
  const ctx = await openContext({ db: false });
  try {
    const handle = ctx.client.workflow.getHandle(name);
    const d = await describeOrNull(handle);
    if (!d) throw new Error(`no study named "${name}" on ${ctx.temporal.address}`);
    const protocol = await protocolOf(ctx, name, d);
    process.stdout.write(`study ${name} (${protocol.protocol} protocol): ${d.status.name} (started ${d.startTime.toISOString()})\n`);
    if (d.status.name === 'RUNNING' || d.status.name === 'COMPLETED') {
      // A finished study answers from its result; a query would need a worker to replay it.
      const p = d.status.name === 'COMPLETED' ? progressOfResult(await handle.result()) : await handle.query<StudyProgress>('progress');
      process.stdout.write(`${p.done}/${p.total} done: ${countsLine(p.counts)}${p.paused ? ` (paused: no new instance starts; envgap study resume ${name})` : ''}\n`);
      if (p.running.length) process.stdout.write(`running: ${p.running.join(', ')}\n`);
      if (p.retrying?.length) process.stdout.write(`to run again: ${p.retrying.length}\n`);
      const pace = studyPace(p, d.status.name === 'COMPLETED' ? (d.closeTime ?? new Date()).getTime() : Date.now());
      if (pace) process.stdout.write(`${pace}\n`);
    }
    const link = uiLink(ctx, name);
    if (link) process.stdout.write(`Temporal UI: ${link}\n`);
  } finally {
    await ctx.close();
  }
}

/** Throughput since the study's first run started, and the time left at that pace; null before anything is done. */
export function studyPace(p: Pick<StudyProgress, 'done' | 'total' | 'startedAtMs'>, nowMs: number): string | null {
  if (!p.startedAtMs || p.done === 0 || nowMs <= p.startedAtMs) return null;
  const perMin = p.done / ((nowMs - p.startedAtMs) / 60_000);
  const left = p.total - p.done;
  const eta = left === 0 ? 'done' : `ETA ${formatMinutes(left / perMin)}`;
  return `throughput ${perMin.toFixed(perMin < 10 ? 2 : 1)} instances/min; ${eta}`;
}

function formatMinutes(min: number): string {
  if (min < 1) return `${Math.ceil(min * 60)} s`;
  if (min < 120) return `${Math.ceil(min)} min`;
  return `${(min / 60).toFixed(1)} h`;
}

/** Pauses or resumes a running study of any protocol: running instances finish, no new one starts while paused. */
export async function signalStudy(name: string, signal: 'pause' | 'resume'): Promise<void> {
  const ctx = await openContext({ db: false });
  try {
    const handle = ctx.client.workflow.getHandle(name);
    const d = await describeOrNull(handle);
    if (d?.status.name !== 'RUNNING') throw new Error(`study "${name}" is not running${d ? ` (${d.status.name})` : ''}`);
    await protocolOf(ctx, name, d);
    await handle.signal(signal);
    say(signal === 'pause' ? `study "${name}" paused: its running instances finish, no new one starts (envgap study resume ${name})` : `study "${name}" resumed`);
  } finally {
    await ctx.close();
  }
}

/**
 * Runs every `error` instance of a study again: inside the study while it runs (a signal; it queues
 * them), else each under its own id (envgap instance retry), its record replaced.
 */
export async function retryStudyErrors(name: string): Promise<void> {
  const ctx = await openContext({ db: true });
  let errors: string[];
  try {
    const handle = ctx.client.workflow.getHandle(name);
    const d = await describeOrNull(handle);
    const protocol = await protocolOf(ctx, name, d);
    errors = (await protocol.records(ctx.db!, name)).filter((r) => r.status === 'error').map((r) => r.id);
    if (errors.length === 0) {
      say(`study "${name}" has no error instance`);
      return;
    }
    if (d?.status.name === 'RUNNING') {
      await handle.signal('retryErrors', errors);
      say(`study "${name}" runs ${errors.length} error instance(s) again; envgap study status ${name} shows them`);
      return;
    }
  } finally {
    await ctx.close();
  }
  for (const id of errors) await retryInstance(id);
}

export async function cancelStudy(name: string): Promise<void> {
  const ctx = await openContext({ db: false });
  try {
    await ctx.client.workflow.getHandle(name).cancel();
    process.stdout.write(`asked study "${name}" to cancel; running instances are cancelled and their containers removed\n`);
  } finally {
    await ctx.close();
  }
}

/**
 * A study's records of any protocol as JSON lines (each carries its `schema`); `envgap import` and
 * `metrics --input` read them back. Gap records carry `agent_usage` (docs/record.md, "Agent usage").
 */
export async function exportStudy(name: string, o: { out?: string }): Promise<void> {
  const db = await openDb(loadSettings());
  try {
    // A study's row says its protocol; instances run on their own (no study row) are looked for in every protocol's table.
    const spec = await findAnyStudy(db, name);
    const found = spec ? { protocol: protocolOfSpec(spec), rows: await protocolOfSpec(spec).records(db, name) } : await protocolWithRecords(db, name);
    if (!found) throw new Error(`no study named "${name}" in the results database, and no record of one`);
    const { protocol, rows } = found;
    // A gap record carries its agent usage (tokens, cost, time, versions) summed from its iterations' agent calls.
    const usage = protocol.protocol === 'envgap' ? await studyUsage(db, name) : new Map<string, AgentUsage>();
    const lines = rows.map((r) => JSON.stringify(usage.has(r.id) ? { ...r.record, agent_usage: usage.get(r.id) } : r.record)).join('\n') + (rows.length ? '\n' : '');
    if (o.out) fs.writeFileSync(o.out, lines);
    else process.stdout.write(lines);
    say(`exported ${rows.length} record(s) of study "${name}" (${protocol.protocol} protocol)${o.out ? ` to ${o.out}` : ''}`);
  } finally {
    await db.destroy();
  }
}
