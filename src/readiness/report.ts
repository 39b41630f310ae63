import type { AgentReport } from '../domain/readiness';

/**
 * The type each of report.json's 9 keys may hold besides null, as domain/readiness.ts's zod schema
 * AgentReport says (a unit test holds the two to the same verdicts). Checked by hand because this
 * runs in the readiness workflow: the workflow sandbox evaluates every module of its bundle again for
 * each new workflow, and zod alone made that about 25 ms of every instance's first workflow task.
 */
const REPORT_KEYS = {
  python_path: 'string',
  python_version: 'string',
  torch_version: 'string',
  cuda_available: 'boolean',
  gpu_count: 'integer',
  ddp_expected_ok: 'boolean',
  env_tool: 'string',
  env_name: 'string',
  notes: 'string',
} as const satisfies Record<keyof AgentReport, 'string' | 'boolean' | 'integer'>;

function fits(value: unknown, type: (typeof REPORT_KEYS)[keyof typeof REPORT_KEYS]): boolean {
  if (value === null || value === undefined) return true;
  if (type === 'integer') return Number.isInteger(value);
  return typeof value === type;
}

/** The problems of a parsed report.json, one `field KEY: …` line each; empty where it is a report. */
function reportProblems(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`field (record): expected an object, received ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`];
  const out: string[] = [];
  for (const [key, type] of Object.entries(REPORT_KEYS)) {
    const v = (value as Record<string, unknown>)[key];
    if (!fits(v, type)) out.push(`field ${key}: expected ${type === 'integer' ? 'an integer' : `a ${type}`} or null, received ${JSON.stringify(v)}`);
  }
  return out;
}

/** report.json as the agent left it: the report (its 9 keys; others dropped), or why it cannot be used (upstream's categories). */
export function parseAgentReport(text: string | null): { report: AgentReport; problem: null } | { report: null; problem: { category: 'missing_report' | 'invalid_json'; message: string } } {
  if (text === null || text.trim() === '') return { report: null, problem: { category: 'missing_report', message: 'no /opt/scimlopsbench/report.json' } };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { report: null, problem: { category: 'invalid_json', message: `report.json is not JSON: ${(e as Error).message}` } };
  }
  const problems = reportProblems(value);
  if (problems.length > 0) return { report: null, problem: { category: 'invalid_json', message: `report.json: ${problems.join('; ')}` } };
  const given = value as Record<string, unknown>;
  const report = Object.fromEntries(Object.keys(REPORT_KEYS).filter((k) => given[k] !== undefined).map((k) => [k, given[k]]));
  return { report: report as AgentReport, problem: null };
}
