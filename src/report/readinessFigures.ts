import type { ReadinessRecord } from '../domain/readiness';
import { computeReadinessMetrics, type SetupPrecisionSummary, type StageCount } from '../metrics/readiness';
import { readinessUsageByAgent } from '../metrics/protocolUsage';
import { usageTable } from './usageTable';
import type { Figure, ReportSection, Table } from './figure';
import { pct } from './figure';

const STAGES = [
  ['c1', 'C1 CPU run'],
  ['c2', 'C2 CUDA'],
  ['c3', 'C3 one GPU'],
  ['c4', 'C4 several GPUs'],
] as const;

/** The research-readiness section: the pyramid's funnel C0→C4 per agent, and the report's hallucinations by kind (envgap scoring). */
export function readinessSection(records: readonly ReadinessRecord[]): ReportSection {
  const metrics = computeReadinessMetrics(records, { mode: 'envgap' });
  const funnel = metrics.groups.flatMap((g) => [
    { agent: g.baseline, stage: 'C0 imports resolved', order: 0, rate: g.c0.total === 0 ? null : 1 - g.c0.missing / g.c0.total, passed: g.c0.total - g.c0.missing, of: g.c0.total },
    ...STAGES.map(([s, stage], i) => ({ agent: g.baseline, stage, order: i + 1, rate: g[s].applicable === 0 ? null : g[s].success / g[s].applicable, passed: g[s].success, of: g[s].applicable })),
  ]);
  const hallucinations = metrics.groups.flatMap((g) => (['path', 'version', 'capability'] as const).map((kind) => ({ agent: g.baseline, kind, count: g.c5[kind] })));
  const funnelFigure: Figure = {
    kind: 'figure',
    id: 'readiness-funnel',
    title: 'Research readiness: the funnel C0→C4 per agent',
    caption: 'Per agent, left to right up the pyramid: the share of imports that resolve (C0), then of jobs where each stage applies, the share that passed it; a stage a job lacks hardware for leaves its denominator.',
    spec: {
      width: 560,
      height: 220,
      data: { values: funnel.filter((d) => d.rate !== null) },
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'stage', type: 'ordinal', sort: { field: 'order' }, title: null },
        y: { field: 'rate', type: 'quantitative', scale: { domain: [0, 1] }, axis: { format: '.0%' }, title: 'passed' },
        color: { field: 'agent', type: 'nominal', title: null },
        tooltip: [{ field: 'agent' }, { field: 'stage' }, { field: 'passed' }, { field: 'of' }],
      },
    },
  };
  const hallucinationFigure: Figure = {
    kind: 'figure',
    id: 'readiness-hallucinations',
    title: 'Research readiness: hallucinations in the agents’ reports (C5)',
    caption: 'Per agent, the claims of its report.json that the probes contradicted, by kind: a path that is not there, a version that differs, a capability that failed.',
    spec: {
      width: 560,
      height: 200,
      data: { values: hallucinations },
      mark: 'bar',
      encoding: {
        x: { field: 'agent', type: 'nominal', title: null },
        xOffset: { field: 'kind', type: 'nominal' },
        y: { field: 'count', type: 'quantitative', title: 'hallucinations' },
        color: { field: 'kind', type: 'nominal', title: null },
        tooltip: [{ field: 'agent' }, { field: 'kind' }, { field: 'count' }],
      },
    },
  };
  const table: Table = {
    kind: 'table',
    id: 'readiness-table',
    title: 'Research readiness per agent',
    caption: 'C0: missing imports over imports; C1–C4: passed over jobs where the stage applies, and in brackets the same with the harness faults (errors) counted as failures where there were any; C5: path/version/capability hallucinations; setup precision: the mean over jobs of the share of the packages the agent installed that C1’s and C2’s commands used, traced (with faults counted as 0 where there were any); errors are harness faults, left out of C0 and C5.',
    head: ['agent', 'jobs', 'errors', 'C0 missing', ...STAGES.map(([, s]) => s), 'C5 p/v/c', 'setup precision'],
    rows: metrics.groups.map((g) => [
      g.baseline,
      String(g.jobs),
      String(g.errors),
      `${g.c0.missing}/${g.c0.total}`,
      ...STAGES.map(([s]) => stageCell(g[s])),
      `${g.c5.path}/${g.c5.version}/${g.c5.capability}`,
      setupPrecisionCell(g.setup_precision),
    ]),
  };
  return {
    id: 'readiness',
    title: 'Research readiness (ResearchEnvBench)',
    summary: `${records.length} readiness records of ${metrics.groups.length} agent(s), envgap scoring.`,
    items: [funnelFigure, hallucinationFigure, table, ...usage(records)],
  };
}

/** `2/3 (66.7%)`, and with harness faults in the stage `2/3 (66.7%); faults as failures 2/4 (50.0%)`. */
function stageCell(c: StageCount): string {
  const faults = c.harness_errors ?? 0;
  const plain = `${c.success}/${c.applicable} (${pct(c.applicable === 0 ? null : c.success / c.applicable)})`;
  return faults === 0 ? plain : `${plain}; faults as failures ${c.success}/${c.applicable + faults} (${pct(c.success / (c.applicable + faults))})`;
}

/** `66.7% over 3 jobs`, and with faults `…; faults as 0 50.0%`; `-` where no job had a precision. */
function setupPrecisionCell(s: SetupPrecisionSummary | undefined): string {
  if (!s || (s.jobs === 0 && s.harness_errors === 0)) return '-';
  const plain = `${pct(s.mean)} over ${s.jobs} job${s.jobs === 1 ? '' : 's'}`;
  return s.harness_errors === 0 ? plain : `${plain}; faults as 0 ${pct(s.mean_errors_as_failures)}`;
}

/** What the agents spent in their sessions, where any session ran. */
function usage(records: readonly ReadinessRecord[]): Table[] {
  const rows = readinessUsageByAgent(records);
  return rows.length === 0 ? [] : [usageTable('readiness-usage', 'Research readiness: agent usage', 'Per agent, over its sessions in the repositories’ containers (one call each): tokens, cost and session wall time summed.', rows)];
}
