import { AgentReport } from '../domain/readiness';
import { describeIssues } from '../text/zodIssues';

/** report.json as the agent left it: the report, or why it cannot be used (upstream's categories). */
export function parseAgentReport(text: string | null): { report: AgentReport; problem: null } | { report: null; problem: { category: 'missing_report' | 'invalid_json'; message: string } } {
  if (text === null || text.trim() === '') return { report: null, problem: { category: 'missing_report', message: 'no /opt/scimlopsbench/report.json' } };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { report: null, problem: { category: 'invalid_json', message: `report.json is not JSON: ${(e as Error).message}` } };
  }
  const parsed = AgentReport.safeParse(value);
  if (!parsed.success) return { report: null, problem: { category: 'invalid_json', message: `report.json: ${describeIssues(parsed.error).join('; ')}` } };
  return { report: parsed.data, problem: null };
}
