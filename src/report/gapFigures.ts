import type { TopLevelSpec } from 'vega-lite' with { 'resolution-mode': 'import' };
import type { UsageRecord } from '../domain/agentUsage';
import { instanceId, type InstanceRecord } from '../domain/instance';
import { computeMetrics } from '../metrics';
import type { MetricsReport } from '../metrics/report';
import { secondDenominatorRows } from '../metrics/secondDenominatorRows';
import { confirmationInstancesTable, confirmedRatesTable } from './confirmationTables';
import { num, pct, pctWithInterval, rateDatum, type Figure, type ReportSection, type Table } from './figure';
import { usageTable } from './usageTable';

export interface GapReportOptions {
  /** Temporal UI address: each instance of the first-attempt grid links to its workflow's page. */
  instanceUrl?: (workflowId: string) => string;
}

const WIDTH = 560;
const SR0 = 'first attempt (SR0)';
const SR = 'final (SR)';

/** Grouped bars of rates with their 95% intervals as error bars (intervals absent: bars only). */
function ratesWithErrorBars(values: object[], x: string, group: string, title: string, groups: string[]): TopLevelSpec {
  return {
    width: WIDTH,
    height: 220,
    data: { values },
    encoding: {
      x: { field: x, type: 'nominal', title: null },
      xOffset: { field: group, type: 'nominal', sort: groups },
      color: { field: group, type: 'nominal', title: null, scale: { domain: groups } },
    },
    layer: [
      { mark: 'bar', encoding: { y: { field: 'value', type: 'quantitative', title, axis: { format: '.0%' }, scale: { domain: [0, 1] } } } },
      {
        transform: [{ filter: 'datum.low != null' }],
        mark: { type: 'errorbar', ticks: true },
        encoding: { y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' } },
      },
    ],
  };
}

/** Fig. 4: first-attempt success of every primary instance, one cell per (agent, task), a row of cells per language. */
function firstAttemptGrid(records: readonly InstanceRecord[], primaryTrial: number, o: GapReportOptions): Figure {
  const values = records
    .filter((r) => r.trial === primaryTrial)
    .map((r) => ({
      agent: r.agent,
      language: r.language,
      task: r.task,
      outcome: r.status === 'error' ? 'harness error' : r.first_attempt_success ? 'first attempt' : r.status === 'success' ? 'repaired' : 'failed',
      ...(o.instanceUrl ? { url: o.instanceUrl(instanceId(r)) } : {}),
    }));
  return {
    kind: 'figure',
    id: 'first-attempt-grid',
    title: 'Gen skill: first-attempt success (Fig. 4)',
    caption: 'One cell per instance (primary trial): dark green succeeded at Gen, light green only after Repair, red never; a row of cells per agent and language.' +
      (o.instanceUrl ? ' Click a cell to open its instance in the Temporal UI.' : ''),
    spec: {
      data: { values },
      facet: { row: { field: 'language', type: 'nominal', title: null } },
      spec: {
        width: WIDTH,
        mark: { type: 'rect', stroke: 'white', strokeWidth: 0.5 },
        encoding: {
          x: { field: 'task', type: 'ordinal', title: 'task', axis: { labels: false, ticks: false } },
          y: { field: 'agent', type: 'nominal', title: null },
          color: {
            field: 'outcome',
            type: 'nominal',
            scale: { domain: ['first attempt', 'repaired', 'failed', 'harness error'], range: ['#1b7837', '#a6dba0', '#d6604d', '#bababa'] },
            title: null,
          },
          tooltip: [{ field: 'agent' }, { field: 'language' }, { field: 'task' }, { field: 'outcome' }],
          ...(o.instanceUrl ? { href: { field: 'url' } } : {}),
        },
      },
      resolve: { scale: { x: 'independent' } },
    },
  };
}

const DEPTH_BUCKETS = [
  ['first_attempt', 'first attempt'],
  ['depth_1_3', '1–3 repairs'],
  ['depth_4_7', '4–7 repairs'],
  ['depth_8_10', '8–10 repairs'],
  ['depth_over_10', 'over 10 repairs'],
  ['depth_unknown', 'repaired, depth not recorded'],
  ['failed', 'failed'],
] as const;

function repairDepth(m: MetricsReport): Figure {
  const values = m.repair_depth.flatMap((row) =>
    DEPTH_BUCKETS.map(([field, bucket], order) => ({ agent: row.agent, language: row.language, bucket, order, count: row[field] })).filter((d) => d.count > 0),
  );
  return {
    kind: 'figure',
    id: 'repair-depth',
    title: 'Repair skill: repair cycles to converge (Fig. 5)',
    caption: 'Each bar is one (agent, language): the share of its instances that succeeded at Gen, after 1–3, 4–7 or 8–10 repairs, or failed within the budget.',
    spec: {
      data: { values },
      facet: { column: { field: 'language', type: 'nominal', title: null } },
      spec: {
        width: 110,
        height: 220,
        mark: 'bar',
        encoding: {
          x: { field: 'agent', type: 'nominal', title: null },
          y: { field: 'count', type: 'quantitative', stack: 'normalize', title: 'share of instances', axis: { format: '.0%' } },
          color: { field: 'bucket', type: 'nominal', sort: DEPTH_BUCKETS.map(([, b]) => b), scale: { scheme: 'viridis' }, title: null },
          order: { field: 'order' },
          tooltip: [{ field: 'agent' }, { field: 'language' }, { field: 'bucket' }, { field: 'count' }],
        },
      },
    },
  };
}

function successByLanguage(m: MetricsReport): Figure {
  const values = m.languages.flatMap((l) => [
    { language: l.language, measure: SR0, ...rateDatum(l, 'sr0') },
    { language: l.language, measure: SR, ...rateDatum(l, 'final_sr') },
  ]);
  return {
    kind: 'figure',
    id: 'success-by-language',
    title: 'Protocol convergence by language (Fig. 6)',
    caption: 'Per language, agents pooled: the first-attempt success rate beside the final success rate after Repair; the whiskers are 95% intervals.',
    spec: ratesWithErrorBars(values, 'language', 'measure', 'success rate', [SR0, SR]),
  };
}

function mismatchByLanguage(m: MetricsReport): Figure {
  const values = m.languages.flatMap((l) => [
    { language: l.language, rate: 'phantom', ...rateDatum(l, 'phantom') },
    { language: l.language, rate: 'hidden', ...rateDatum(l, 'hidden') },
    { language: l.language, rate: 'bloat', ...rateDatum(l, 'bloat') },
  ]);
  return {
    kind: 'figure',
    id: 'mismatch-by-language',
    title: 'Phantom, hidden and bloat rates by language (Fig. 7)',
    caption: 'Averaged over successful instances: declared but never traced (phantom), traced but never declared (hidden), installed but never traced (bloat); whiskers are 95% intervals.',
    spec: ratesWithErrorBars(values, 'language', 'rate', 'mean rate', ['phantom', 'hidden', 'bloat']),
  };
}

function inflation(records: readonly InstanceRecord[], primaryTrial: number): Figure {
  const values = records
    .filter((r) => r.trial === primaryTrial && r.status === 'success')
    .map((r) => ({ language: r.language, n1: r.declared_count ?? r.declared?.length ?? null, n2: r.installed_count ?? r.installed?.length ?? null }))
    .filter((d): d is { language: InstanceRecord['language']; n1: number; n2: number } => d.n1 !== null && d.n1 > 0 && d.n2 !== null)
    .map((d) => ({ language: d.language, rho: d.n2 / d.n1 }));
  return {
    kind: 'figure',
    id: 'inflation',
    title: 'Initial-to-final environment growth (Fig. 8)',
    caption: 'Per language, the inflation ratio installed/declared (n2/n1) of each successful instance: the box spans the middle half, the line is the median, a log scale.',
    spec: {
      width: WIDTH,
      height: 220,
      data: { values },
      mark: { type: 'boxplot', extent: 1.5 },
      encoding: {
        x: { field: 'language', type: 'nominal', title: null },
        y: { field: 'rho', type: 'quantitative', scale: { type: 'log' }, title: 'inflation ratio n2/n1' },
        color: { field: 'language', type: 'nominal', legend: null },
      },
    },
  };
}

function crossAgent(m: MetricsReport): Figure {
  const values = m.cross_agent.filter((r) => r.pair !== 'all' && r.jaccard_mean !== null).map((r) => ({ language: r.language, pair: r.pair, jaccard: r.jaccard_mean, n: r.n }));
  return {
    kind: 'figure',
    id: 'cross-agent-jaccard',
    title: 'Cross-agent agreement on declared dependencies (Fig. 9)',
    caption: 'Mean Jaccard similarity of two agents’ initial manifests for the same task and language; the dotted line marks half of the declared packages shared.',
    spec: {
      width: WIDTH,
      height: 220,
      data: { values },
      layer: [
        {
          mark: 'bar',
          encoding: {
            x: { field: 'language', type: 'nominal', title: null },
            xOffset: { field: 'pair', type: 'nominal' },
            y: { field: 'jaccard', type: 'quantitative', scale: { domain: [0, 1] }, title: 'mean Jaccard' },
            color: { field: 'pair', type: 'nominal', title: null },
            tooltip: [{ field: 'language' }, { field: 'pair' }, { field: 'jaccard', format: '.3f' }, { field: 'n' }],
          },
        },
        { data: { values: [{ half: 0.5 }] }, mark: { type: 'rule', strokeDash: [4, 4] }, encoding: { y: { field: 'half', type: 'quantitative' } } },
      ],
    },
  };
}

function byDomain(m: MetricsReport): Figure {
  const values = m.domains.flatMap((d) => [
    { agent: d.agent, domain: d.domain ?? '(none)', measure: SR0, ...rateDatum(d, 'sr0') },
    { agent: d.agent, domain: d.domain ?? '(none)', measure: SR, ...rateDatum(d, 'final_sr') },
  ]);
  return {
    kind: 'figure',
    id: 'success-by-domain',
    title: 'Protocol convergence by task domain (Fig. 10)',
    caption: 'Per agent and task domain: first-attempt and final success rates, as in Fig. 6; whiskers are 95% intervals.',
    spec: {
      data: { values },
      facet: { row: { field: 'agent', type: 'nominal', title: null } },
      spec: {
        width: WIDTH,
        height: 160,
        encoding: {
          x: { field: 'domain', type: 'nominal', title: null, axis: { labelAngle: -30 } },
          xOffset: { field: 'measure', type: 'nominal', sort: [SR0, SR] },
          color: { field: 'measure', type: 'nominal', title: null, scale: { domain: [SR0, SR] } },
        },
        layer: [
          { mark: 'bar', encoding: { y: { field: 'value', type: 'quantitative', title: 'success rate', axis: { format: '.0%' }, scale: { domain: [0, 1] } } } },
          { transform: [{ filter: 'datum.low != null' }], mark: { type: 'errorbar', ticks: true }, encoding: { y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' } } },
        ],
      },
    },
  };
}

function tables(m: MetricsReport): Table[] {
  return [
    {
      kind: 'table',
      id: 'table-4-accuracy',
      title: 'Initial-manifest accuracy (Table 4)',
      caption: 'D1 against D3 over successful instances, per language: precision, recall and F1 (instances with nothing declared and nothing traced left out), with 95% intervals.',
      head: ['language', 'instances', 'precision', 'recall', 'F1'],
      rows: m.languages.map((l) => [l.language, String(l.accuracy_n), pctWithInterval(l, 'precision'), pctWithInterval(l, 'recall'), pctWithInterval(l, 'f1')]),
    },
    {
      kind: 'table',
      id: 'table-5-intra-agent',
      title: 'Stochastic variability across trials (Table 5)',
      caption: 'Per agent and language with several trials: mean and median Jaccard of the trials’ declared sets, the unanimous consensus rate, and the mean union and core vocabulary.',
      head: ['agent', 'language', 'trials', 'tasks', 'Jaccard mean', 'Jaccard median', 'UCR', 'union', 'core'],
      rows: m.intra_agent.map((r) => [r.agent, r.language, String(r.trials), String(r.tasks), num(r.jaccard_mean), num(r.jaccard_median), pctWithInterval(r, 'ucr'), num(r.union_mean, 2), num(r.core_mean, 2)]),
    },
    {
      kind: 'table',
      id: 'table-6-environment-gap',
      title: 'C++ system-library assumption failures and recovery (Table 6)',
      caption: 'Fail: first-attempt failures; SysLib: those whose error is a missing system library (SLAR = SysLib/Fail); Rec.: SysLib failures repaired (EGAR = Rec./SysLib). Harness faults are left out; beside each rate, the same with them counted as failures.',
      head: ['agent', 'Fail', 'SysLib', 'SLAR', 'SLAR, faults as failures', 'Rec.', 'EGAR', 'EGAR, faults as failures'],
      rows: m.environment_gap.map((r) => [
        r.agent, String(r.failures), String(r.syslib), pctWithInterval(r, 'slar'), pct(r.slar_errors_as_failures), String(r.recovered), pctWithInterval(r, 'egar'), pct(r.egar_errors_as_failures),
      ]),
    },
    {
      kind: 'table',
      id: 'table-7-spearman',
      title: 'Manifest size against first-attempt success (Table 7)',
      caption: 'Spearman correlation of the declared set’s size with first-attempt success per language; a negative rho means larger manifests fail more often.',
      head: ['language', 'n', 'rho', 'p'],
      rows: m.spearman.map((r) => [r.language, String(r.n), num(r.rho), num(r.p, 4)]),
    },
    ...(['phantom', 'hidden'] as const).map((kind): Table => ({
      kind: 'table',
      id: `frequent-${kind}`,
      title: `Most frequent ${kind} packages`,
      caption: kind === 'phantom' ? 'Declared in the initial manifest but never opened by the successful program, counted over instances.' : 'Opened by the successful program but never declared, counted over instances.',
      head: ['language', 'rank', 'package', 'instances'],
      rows: m.frequent_packages.filter((r) => r.kind === kind).map((r) => [r.language, String(r.rank), r.package, String(r.count)]),
    })),
  ];
}

const signedPoints = (x: number | null) => (x === null ? '-' : `${x > 0 ? '+' : x < 0 ? '−' : '±'}${(Math.abs(x) * 100).toFixed(1)} pts`);

/** Both denominators: each rate that a harness fault changes, with the faults left out and counted as failures. */
function bothDenominators(m: MetricsReport): Table {
  return {
    kind: 'table',
    id: 'both-denominators',
    title: 'Harness faults: both denominators',
    caption:
      `Every rate is computed with the ${m.excluded_errors} harness faults (status error, not the agent’s doing) left out, as the figures above show them, and again with them counted as failures; ` +
      'these are the rates that differ, with the difference in percentage points. Rates over successful instances (P, R, F1, phantom, hidden, bloat, CDR, UCR, UDR) never differ: a fault is never a success.',
    head: ['metric', 'group', 'faults', 'rate', 'faults left out', 'faults as failures', 'difference'],
    rows: secondDenominatorRows(m, true).map((r) => [r.metric, r.group, r.harness_errors === null ? '-' : String(r.harness_errors), r.rate, pct(r.left_out), pct(r.as_failures), signedPoints(r.delta)]),
  };
}

/** What the agents spent per agent and language, where the records carry it (not imported ones). */
function usage(m: MetricsReport): Table[] {
  if (m.usage.length === 0) return [];
  return [usageTable('agent-usage', 'Agent usage: tokens, cost and time', 'Per agent and language, every trial and status (a harness error’s calls were made too): the calls’ tokens, cost and wall time summed, and the agent versions they reported.', m.usage)];
}

/** The environment-gap section: the paper's Figs. 4–10 and Tables 4–7 over instance records. */
export function gapSection(records: readonly UsageRecord[], o: GapReportOptions = {}): ReportSection {
  const m = computeMetrics(records);
  const items = [firstAttemptGrid(records, m.primary_trial, o), repairDepth(m), successByLanguage(m), mismatchByLanguage(m), ...confirmedRatesTable(records, m), inflation(records, m.primary_trial), crossAgent(m), byDomain(m), ...tables(m), ...confirmationInstancesTable(records), bothDenominators(m), ...usage(m)];
  const withFaults = (l: MetricsReport['languages'][number]) => (m.excluded_errors > 0 ? ` (${pct(l.sr0_errors_as_failures)} with faults as failures)` : '');
  return {
    id: 'environment-gap',
    title: 'Environment gap',
    summary: `${m.records} instance records, primary trial ${m.primary_trial}; ${m.excluded_errors} harness errors and ${m.environment_excluded} Environment failures left out. Success rates: ${m.languages.map((l) => `${l.language} SR0 ${pct(l.sr0)}${withFaults(l)}`).join(', ')}.`,
    items,
  };
}
