import * as path from 'node:path';
import { z } from 'zod';
import { AgentReport, type ReadinessRecord } from '../domain/readiness';
import { describeIssues } from '../text/zodIssues';
import { readUpstreamJson, readText } from './researchenvbenchFiles';

const text = z.string().nullable().optional();

/** The fields of job_summary.json (m2/run_one_job.py) that scoring reads; others are kept as they are. */
export const JobSummary = z.looseObject({
  run_id: text,
  job_id: text,
  repo_url: text,
  commit_sha: text,
  baseline: text,
  baseline_backend: text,
  baseline_input: text,
  hardware_bucket: text,
  script_id: z.union([z.string(), z.number()]).nullable().optional(),
  timestamps: z.record(z.string(), z.unknown()).nullable().optional(),
  status: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type JobSummary = z.infer<typeof JobSummary>;

export function readJobSummary(jobDir: string): JobSummary {
  const file = path.join(jobDir, 'job_summary.json');
  const read = readUpstreamJson(file);
  if (read.kind === 'invalid') throw new Error(read.problem);
  if (read.kind === 'absent') throw new Error(`${file}: empty (no run_id, job_id, repo_url, baseline)`);
  const parsed = JobSummary.safeParse(read.value);
  if (!parsed.success) throw new Error(`${file}: ${describeIssues(parsed.error).join('; ')}`);
  return parsed.data;
}

/** _pick_baseline: `baseline`, else `baseline_backend`, else `baseline_input`, trimmed; '' when none. */
export function pickBaseline(summary: JobSummary): string {
  return (summary.baseline ?? '').trim() || (summary.baseline_backend ?? '').trim() || (summary.baseline_input ?? '').trim();
}

function timestamp(summary: JobSummary, key: string): number | null {
  const v = summary.timestamps?.[key];
  return typeof v === 'number' ? v : null;
}

/** agent_end - agent_start, unrounded; null where either is absent or the end precedes the start. */
export function agentWallSeconds(summary: JobSummary): number | null {
  const a0 = timestamp(summary, 'agent_start');
  const a1 = timestamp(summary, 'agent_end');
  return a0 !== null && a1 !== null && a1 >= a0 ? a1 - a0 : null;
}

const AGENT_STATUS: Record<string, 'finished' | 'timeout' | 'failed'> = { success: 'finished', timeout: 'timeout', failed: 'failed' };

export function sessionOf(summary: JobSummary): ReadinessRecord['session'] {
  const wall = agentWallSeconds(summary);
  if (wall === null) return null;
  const agent = summary.status?.agent;
  const status = typeof agent === 'string' ? (AGENT_STATUS[agent] ?? 'failed') : 'finished';
  return {
    status,
    budget_exceeded: status === 'timeout' ? 'wall' : null,
    wall_s: wall,
    steps: 0,
    tokens_in: null,
    tokens_out: null,
    cost_usd: null,
    resumed: 0,
    restarted: 0,
    message: typeof agent === 'string' && agent !== 'success' ? `agent ${agent}` : null,
  };
}

/** agent/report.json: the report, or why it cannot be used (missing_report, invalid_json: ...). */
export function readAgentReport(jobDir: string): { report: AgentReport | null; problem: string | null } {
  const file = path.join(jobDir, 'agent', 'report.json');
  const read = readUpstreamJson(file);
  if (read.kind === 'absent') return { report: null, problem: 'missing_report' };
  if (read.kind === 'invalid') return { report: null, problem: `invalid_json: ${read.problem}` };
  const parsed = AgentReport.safeParse(read.value);
  if (!parsed.success) return { report: null, problem: `invalid_json: ${describeIssues(parsed.error).join('; ')}` };
  return { report: parsed.data, problem: null };
}

/** docker/nvidia_smi.txt: the first GPU's name, the driver, and how many `GPU n:` lines it lists. */
export function gpuOf(jobDir: string): ReadinessRecord['gpu'] {
  const txt = readText(path.join(jobDir, 'docker', 'nvidia_smi.txt'));
  const driver = /Driver Version:\s*([0-9.]+)/.exec(txt)?.[1] ?? '';
  const name = (/GPU\s+0:\s*([^(]+)\(/.exec(txt)?.[1] ?? /Product Name\s*:\s*(.+)/.exec(txt)?.[1] ?? '').trim();
  const count = (txt.match(/^GPU\s+\d+:/gm) ?? []).length;
  if (name === '' && driver === '' && count === 0) return null;
  return { name, driver_version: driver, count };
}
