import { shuffled, mulberry32 } from '../../../src/metrics/synthetic/prng';
import { syntheticRecords } from '../../../src/metrics/synthetic/syntheticRecords';
import { computeMetrics } from '../../../src/metrics';
import { record } from './records';

/** The report without its second denominator (`*_errors_as_failures`, `*_errors_delta`, `harness_errors`). */
function leftOutView(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(leftOutView);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !k.endsWith('_errors_as_failures') && !k.endsWith('_errors_delta') && k !== 'harness_errors')
      .map(([k, v]) => [k, leftOutView(v)]),
  );
}

describe('computeMetrics', () => {
  const records = syntheticRecords(4_000, 7);

  it('does not depend on the order of the records', () => {
    const report = computeMetrics(records);
    for (const seed of [1, 2, 3]) {
      expect(computeMetrics(shuffled(records, mulberry32(seed)))).toEqual(report);
    }
  });

  it('leaves records with status error out of every metric, and counts them', () => {
    const clean = records.filter((r) => r.status !== 'error');
    const errors = records.length - clean.length;
    expect(errors).toBeGreaterThan(0);
    const withErrors = computeMetrics(records);
    const without = computeMetrics(clean);
    expect(withErrors.excluded_errors).toBe(errors);
    expect(without.excluded_errors).toBe(0);
    // The first denominator is the metrics as they always were; only the second one sees the faults.
    expect(leftOutView({ ...withErrors, records: 0, excluded_errors: 0 })).toEqual(leftOutView({ ...without, records: 0, excluded_errors: 0 }));
  });

  it('leaves failures classed Environment out of the success rates by default, counts them, and keeps them with countEnvironment', () => {
    // Four Python tasks: two succeed, one fails on its own code, one could only fail (Redis is not there).
    const records = [
      record({ task: 'p_01' }),
      record({ task: 'p_02', first_attempt_success: false, repair_depth: 1, first_error_class: 'MissingDep' }),
      record({ task: 'p_03', status: 'failed', first_attempt_success: false, repair_depth: null, first_error_class: 'Runtime', traced: null }),
      record({ task: 'p_04', status: 'failed', first_attempt_success: false, repair_depth: null, first_error_class: 'Environment', traced: null }),
      // Environment at first, repaired in the end (the agent dropped Redis): an ordinary instance.
      record({ task: 'p_05', first_attempt_success: false, repair_depth: 2, first_error_class: 'Environment' }),
    ];
    const byDefault = computeMetrics(records);
    expect(byDefault).toMatchObject({ records: 5, excluded_errors: 0, count_environment: false, environment_excluded: 1 });
    expect(byDefault.cells[0]).toMatchObject({ n: 4, successes: 3, first_attempt_failures: 3, sr0: 0.25, final_sr: 0.75, repaired_share: 2 / 3 });
    expect(byDefault.domains[0]).toMatchObject({ n: 4, sr0: 0.25, final_sr: 0.75 });
    expect(byDefault.repair_depth[0].failed).toBe(1);

    const counted = computeMetrics(records, { countEnvironment: true });
    expect(counted).toMatchObject({ count_environment: true, environment_excluded: 0 });
    expect(counted.cells[0]).toMatchObject({ n: 5, successes: 3, first_attempt_failures: 4, sr0: 0.2, final_sr: 0.6, repaired_share: 0.5 });
    expect(counted.repair_depth[0].failed).toBe(2);
  });

  it('computes the cell and language metrics over the primary trial only', () => {
    const report = computeMetrics([
      record({ trial: 1, declared: ['a'], installed: ['a', 'b'], traced: ['a'] }),
      record({ trial: 2, status: 'failed', first_attempt_success: false, repair_depth: null, traced: null }),
    ]);
    expect(report.cells).toHaveLength(1);
    expect(report.cells[0]).toMatchObject({ n: 1, sr0: 1, final_sr: 1, rho_mean: 2, precision: 1, recall: 1 });
    const second = computeMetrics(
      [record({ trial: 1 }), record({ trial: 2, status: 'failed', first_attempt_success: false, repair_depth: null, traced: null })],
      { primaryTrial: 2 },
    );
    expect(second.primary_trial).toBe(2);
    expect(second.cells[0]).toMatchObject({ n: 1, sr0: 0, final_sr: 0 });
  });

  it('refuses two records for one instance', () => {
    expect(() => computeMetrics([record({ study: 'a' }), record({ study: 'b' })])).toThrow(
      /two instance records for claude\/python\/p_01\/trial 1 \(studies "a" and "b"\)/,
    );
  });

  it('gives an empty report, not an exception, for no records', () => {
    const report = computeMetrics([]);
    expect(report).toMatchObject({ records: 0, excluded_errors: 0, cells: [], languages: [], cross_agent: [], cdr_macro: null });
  });

  it('has every section the issue asks for, with the listed fields', () => {
    const report = computeMetrics(records);
    expect(Object.keys(report.cells[0])).toEqual(
      expect.arrayContaining(['agent', 'language', 'n', 'sr0', 'final_sr', 'repaired_share', 'precision', 'recall', 'f1',
        'phantom', 'hidden', 'bloat', 'rho_mean', 'rho_median', 'udr']),
    );
    expect(Object.keys(report.languages[0])).toEqual(
      expect.arrayContaining(['language', 'n', 'sr0', 'final_sr', 'precision', 'recall', 'f1', 'phantom', 'hidden', 'bloat',
        'rho_mean', 'rho_median']),
    );
    expect(report.cross_agent.map((r) => r.pair)).toContain('claude-codex');
    expect(report.cross_agent.map((r) => r.pair)).toContain('all');
    expect(report.cdr_macro).not.toBeNull();
    expect(Object.keys(report.intra_agent[0])).toEqual(
      expect.arrayContaining(['agent', 'language', 'tasks', 'jaccard_mean', 'jaccard_median', 'unanimous', 'union_mean', 'core_mean']),
    );
    expect(Object.keys(report.environment_gap[0])).toEqual([
      'agent', 'failures', 'harness_errors', 'syslib', 'slar', 'slar_errors_as_failures', 'slar_errors_delta',
      'recovered', 'egar', 'egar_errors_as_failures', 'egar_errors_delta', 'slar_ci', 'egar_ci',
    ]);
    expect(Object.keys(report.udr_macro[0])).toEqual(expect.arrayContaining(['agent', 'udr']));
    expect(report.domains.length).toBeGreaterThan(0);
    expect(report.repair_depth.length).toBe(report.cells.length);
    expect(report.spearman.map((r) => r.language)).toEqual(['python', 'java', 'javascript', 'cpp']);
    expect(new Set(report.frequent_packages.map((r) => r.kind))).toEqual(new Set(['phantom', 'hidden']));
    for (const cell of report.cells) {
      for (const rate of [cell.sr0, cell.final_sr, cell.precision, cell.recall, cell.f1, cell.phantom, cell.hidden, cell.bloat, cell.udr]) {
        if (rate !== null) expect(rate).toBeGreaterThanOrEqual(0);
        if (rate !== null) expect(rate).toBeLessThanOrEqual(1);
      }
    }
  });
});
