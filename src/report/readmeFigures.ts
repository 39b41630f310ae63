import { ERROR_TYPES, type ReadmeRecord } from '../domain/readme';
import { readmeStudyMetrics } from '../metrics/readmeStudy';
import { readmeUsageByAgent } from '../metrics/protocolUsage';
import { usageTable } from './usageTable';
import { num, pct, type Figure, type ReportSection, type Table } from './figure';

/** The README-diagnosis section: type P, R and F1 per error type, and diagnosis accuracy against Pass@1. */
export function readmeSection(records: readonly ReadmeRecord[]): ReportSection {
  const { groups } = readmeStudyMetrics(records);
  const perType = groups.flatMap((g) =>
    ERROR_TYPES.flatMap((type) => {
      const s = g.per_type[type];
      // A type neither the gold nor the agent has anywhere has no scores to draw.
      if (s.tp + s.fp + s.fn === 0) return [];
      return (['precision', 'recall', 'f1'] as const).map((measure) => ({ agent: g.agent, type, measure, value: s[measure], tp: s.tp, fp: s.fp, fn: s.fn }));
    }),
  );
  const typeFigure: Figure = {
    kind: 'figure',
    id: 'readme-per-type',
    title: 'README diagnosis: error-type precision, recall and F1',
    caption: 'Per injected error type (E1–E8) and agent: of the types it named, the share that were injected (precision), of those injected, the share it named (recall), and their F1.',
    spec: {
      data: { values: perType },
      facet: { column: { field: 'measure', type: 'nominal', title: null, sort: ['precision', 'recall', 'f1'] } },
      spec: {
        width: 170,
        height: 200,
        mark: 'bar',
        encoding: {
          x: { field: 'type', type: 'nominal', title: null },
          xOffset: { field: 'agent', type: 'nominal' },
          y: { field: 'value', type: 'quantitative', scale: { domain: [0, 1] }, title: null },
          color: { field: 'agent', type: 'nominal', title: null },
          tooltip: [{ field: 'agent' }, { field: 'type' }, { field: 'measure' }, { field: 'value', format: '.3f' }, { field: 'tp' }, { field: 'fp' }, { field: 'fn' }],
        },
      },
    },
  };
  const accuracy = groups.flatMap((g) =>
    (['description', 'fix'] as const)
      .map((kind) => ({ agent: g.agent, kind: `${kind} accuracy`, accuracy: kind === 'fix' ? g.fix_accuracy : g.description_accuracy, pass: g.pass_at_1.rate }))
      .filter((d) => d.accuracy !== null && d.pass !== null),
  );
  const accuracyFigure: Figure = {
    kind: 'figure',
    id: 'readme-accuracy-vs-pass',
    title: 'README diagnosis: accuracy against Pass@1',
    caption: 'Each point is an agent: how well it described and fixed the injected errors (x) against how often its setup script then passed against the real repository (y).',
    spec: {
      width: 360,
      height: 260,
      data: { values: accuracy },
      mark: { type: 'point', filled: true, size: 120 },
      encoding: {
        x: { field: 'accuracy', type: 'quantitative', scale: { domain: [0, 1] }, title: 'diagnosis accuracy' },
        y: { field: 'pass', type: 'quantitative', scale: { domain: [0, 1] }, title: 'Pass@1' },
        color: { field: 'agent', type: 'nominal', title: null },
        shape: { field: 'kind', type: 'nominal', title: null },
        tooltip: [{ field: 'agent' }, { field: 'kind' }, { field: 'accuracy', format: '.3f' }, { field: 'pass', format: '.3f' }],
      },
    },
  };
  const table: Table = {
    kind: 'table',
    id: 'readme-table',
    title: 'README diagnosis per agent',
    caption: 'Type P/R/F1 over all READMEs; description and fix accuracy over READMEs with injected errors; Pass@1 = passed/(passed+failed), skips and harness faults left out. Beside type F1 and Pass@1, the same with the harness faults counted as failures (a faulted README scored as one without an answer).',
    head: ['agent', 'READMEs', 'type P', 'type R', 'type F1', 'type F1, faults as failures', 'desc acc', 'fix acc', 'Pass@1', 'Pass@1, faults as failures', 'judge'],
    rows: groups.map((g) => [
      g.agent,
      String(g.instances),
      num(g.type.precision),
      num(g.type.recall),
      num(g.type.f1),
      num(g.errors_as_failures.type.f1),
      num(g.description_accuracy),
      num(g.fix_accuracy),
      `${pct(g.pass_at_1.rate)} (${g.pass_at_1.passed}/${g.pass_at_1.attempted})`,
      `${pct(g.pass_at_1.rate_errors_as_failures)} (${g.pass_at_1.passed}/${g.pass_at_1.attempted + g.pass_at_1.harness_errors})`,
      g.judge,
    ]),
  };
  return {
    id: 'readme',
    title: 'README diagnosis (EnConda-Bench)',
    summary: `${records.length} README records of ${groups.length} agent(s).`,
    items: [typeFigure, ...(accuracy.length > 0 ? [accuracyFigure] : []), table, ...usage(records)],
  };
}

/** What the agents spent answering, where any answer was asked for. */
function usage(records: readonly ReadmeRecord[]): Table[] {
  const rows = readmeUsageByAgent(records);
  return rows.length === 0 ? [] : [usageTable('readme-usage', 'README diagnosis: agent usage', 'Per agent, over the READMEs it was asked to diagnose (one call each): tokens, cost and answer time summed.', rows)];
}
