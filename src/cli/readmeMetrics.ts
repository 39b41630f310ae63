import type { ReadmeRecord } from '../domain/readme';
import { ERROR_TYPES } from '../domain/readme';
import { readmeStudyMetrics } from '../metrics/readmeStudy';
import { readmeUsageByAgent } from '../metrics/protocolUsage';
import { usageTextTable } from '../metrics/usageTextTable';

const f3 = (x: number | null) => (x === null ? '-' : x.toFixed(3));

/** The per-agent table of a README study: type P/R/F1, per-type F1, description and fix accuracy, Pass@1; then what each agent spent. */
export function readmeMetricsTable(records: readonly ReadmeRecord[]): string {
  const { groups } = readmeStudyMetrics(records);
  const head = ['agent', 'READMEs', 'type P', 'type R', 'type F1', ...ERROR_TYPES.map((t) => `${t} F1`), 'desc acc', 'fix acc', 'Pass@1', 'judge'];
  const rows = groups.map((g) => [
    g.agent,
    String(g.instances),
    f3(g.type.precision),
    f3(g.type.recall),
    f3(g.type.f1),
    // A type that neither the gold nor the agent has anywhere has no F1 to show.
    ...ERROR_TYPES.map((t) => (g.per_type[t].tp + g.per_type[t].fp + g.per_type[t].fn === 0 ? '-' : f3(g.per_type[t].f1))),
    f3(g.description_accuracy),
    f3(g.fix_accuracy),
    g.pass_at_1.rate === null ? `- (${g.pass_at_1.skipped} skipped)` : `${f3(g.pass_at_1.rate)} (${g.pass_at_1.passed}/${g.pass_at_1.attempted})`,
    g.judge,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  const notes = groups.flatMap((g) => {
    const out: string[] = [];
    if (g.answers.invalid_answer + g.answers.failed + g.answers.timeout > 0) out.push(`${g.agent}: ${g.answers.invalid_answer} invalid answer(s), ${g.answers.failed} failed, ${g.answers.timeout} timed out (scored as no predictions)`);
    if (g.harness_errors > 0) out.push(`${g.agent}: ${g.harness_errors} harness error(s), ${g.pass_at_1.infra_errors} of them in Pass@1 (not counted against the agent)`);
    const w = g.errors_as_failures;
    if (w.harness_errors + g.pass_at_1.harness_errors > 0) {
      out.push(
        `${g.agent}: with the harness faults counted as failures: type P/R/F1 ${f3(w.type.precision)}/${f3(w.type.recall)}/${f3(w.type.f1)}, ` +
          `desc acc ${f3(w.description_accuracy)}, fix acc ${f3(w.fix_accuracy)} (${w.harness_errors} README(s)); ` +
          `Pass@1 ${f3(g.pass_at_1.rate_errors_as_failures)} (${g.pass_at_1.passed}/${g.pass_at_1.attempted + g.pass_at_1.harness_errors})`,
      );
    }
    return out;
  });
  const usage = readmeUsageByAgent(records);
  const usageText = usage.length ? ['', 'Agent usage (one call per README answered)', usageTextTable(usage)] : [];
  return [line(head), ...rows.map(line), ...notes, ...usageText].join('\n') + '\n';
}
