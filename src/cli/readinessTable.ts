import type { ReadinessRecord, StageResult } from '../domain/readiness';
import { firstLine } from '../text/oneLine';
import { costCell, tokensInOutCell } from '../metrics/usageCells';

const cell = (r: StageResult) => (r.status === 'success' ? 'ok' : r.status === 'skipped' ? `skip:${r.skip_reason ?? '?'}` : `FAIL:${r.failure_category ?? '?'}`);

/** Why, in one line: a harness error's kind and message, or how a session that did not finish ended. */
function why(r: ReadinessRecord): string {
  if (r.error) return `${r.error.kind}: ${firstLine(r.error.message)}`;
  if (r.session && r.session.status !== 'finished' && r.session.message) return firstLine(r.session.message);
  return '-';
}

/** Setup precision as the installed packages used over those installed (`4/6`); `error` where its measurement failed. */
function setupCell(r: ReadinessRecord): string {
  const s = r.setup_precision;
  if (!s) return '-';
  if (s.error) return 'error';
  if (s.traced.length === 0) return 'untraced';
  return `${s.installed_used}/${s.installed}`;
}

/**
 * The pyramid per instance: C0 missing/total, C1..C4 as ok, FAIL:category or skip:reason, C5
 * hallucination counts, setup precision (installed and used over installed); then what the session spent (tokens in/out, cost in US dollars; `-` where not
 * reported) and why an instance errored or its session did not finish.
 */
export function pyramidTable(records: ReadinessRecord[]): string {
  const header = ['agent', 'repo', 'trial', 'status', 'session', 'C0 missing', 'C1', 'C2', 'C3', 'C4', 'C5 path/ver/cap', 'violations', 'setup used', 'ready s', 'tokens in/out', 'cost $', 'why'];
  const rows = records.map((r) => [
    r.agent,
    r.repo,
    String(r.trial),
    r.status,
    r.session ? `${r.session.status}${r.session.budget_exceeded ? `:${r.session.budget_exceeded}` : ''}` : '-',
    r.stages.c0.status === 'skipped' ? 'skip' : `${r.stages.c0.missing.length}/${r.stages.c0.total}${r.stages.c0.failure_category && r.stages.c0.failure_category !== 'deps' ? ` (${r.stages.c0.failure_category})` : ''}`,
    cell(r.stages.c1),
    cell(r.stages.c2),
    cell(r.stages.c3),
    cell(r.stages.c4),
    r.stages.c5.status === 'skipped' ? 'skip' : r.stages.c5.failure_category === 'missing_report' || r.stages.c5.failure_category === 'invalid_json' ? r.stages.c5.failure_category : `${r.stages.c5.path}/${r.stages.c5.version}/${r.stages.c5.capability}`,
    String(r.violations.length),
    setupCell(r),
    r.time_to_ready_s === null ? '-' : r.time_to_ready_s.toFixed(1),
    tokensInOutCell(r.session ?? undefined),
    costCell(r.session ? { cost_usd: r.session.cost_usd, cost_calls: r.session.cost_usd === null ? 0 : 1, calls: 1 } : undefined),
    why(r),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cols: string[]) => cols.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
