import { parseCsvRecords } from '../../../src/catalog/csv';
import type { InstanceRecord } from '../../../src/domain/instance';
import { computeMetrics, formatMetricsTable, metricsToCsv } from '../../../src/metrics';
import { prepareInstances } from '../../../src/metrics/instances';
import { columnsWithSecondDenominator, pairedValue, pairRows } from '../../../src/metrics/secondDenominator';
import { secondDenominatorRows } from '../../../src/metrics/secondDenominatorRows';
import { shuffled, mulberry32 } from '../../../src/metrics/synthetic/prng';
import { syntheticRecords } from '../../../src/metrics/synthetic/syntheticRecords';
import { failed, record, repaired } from './records';

/** A harness fault: the instance ended in `error` (Docker went away, a recording ended early). */
function fault(over: Partial<InstanceRecord> = {}): InstanceRecord {
  return record({
    status: 'error', first_attempt_success: false, repair_depth: null, first_error_class: null,
    installed: null, traced: null, error: { kind: 'docker', message: 'daemon gone' }, ...over,
  });
}

describe('both denominators: harness faults left out, and counted as failures', () => {
  describe('prepareInstances with errorsAsFailures', () => {
    it('keeps a fault as an instance that failed at every attempt, with nothing installed or traced, and still counts it', () => {
      const records = [record(), fault({ task: 'p_02', declared: ['a'], first_attempt_success: true, installed: ['a'], traced: ['a'] })];
      expect(prepareInstances(records).instances.map((i) => i.task)).toEqual(['p_01']);
      const { instances, excludedErrors } = prepareInstances(records, { errorsAsFailures: true });
      expect(excludedErrors).toBe(1);
      expect(instances[1]).toMatchObject({
        task: 'p_02', success: false, firstAttemptSuccess: false, repairDepth: null, installed: null, traced: null, declaredCount: 1, installedCount: null,
      });
    });

    it('leaves Environment failures out in both views unless they are counted', () => {
      const records = [record(), failed({ task: 'p_02', first_error_class: 'Environment' }), fault({ task: 'p_03' })];
      expect(prepareInstances(records, { errorsAsFailures: true })).toMatchObject({ excludedErrors: 1, excludedEnvironment: 1 });
      expect(prepareInstances(records, { errorsAsFailures: true }).instances.map((i) => i.task)).toEqual(['p_01', 'p_03']);
      expect(prepareInstances(records, { errorsAsFailures: true, countEnvironment: true }).instances).toHaveLength(3);
    });
  });

  describe('M1 of a cell, by hand', () => {
    // Five Python instances of one agent: one first-attempt success, two repaired, one failure, one fault.
    const records = [
      record({ task: 'p_01', declared: ['a'], installed: ['a'], traced: ['a'] }),
      repaired(1, { task: 'p_02', declared: ['a'], installed: ['a', 'b'], traced: ['a', 'b'] }),
      repaired(4, { task: 'p_03' }),
      failed({ task: 'p_04' }),
      fault({ task: 'p_05' }),
    ];
    const report = computeMetrics(records);
    const cell = report.cells[0];

    it('left out: 4 instances; as failures: 5', () => {
      expect(cell).toMatchObject({ n: 4, harness_errors: 1, successes: 3, first_attempt_failures: 3 });
      expect(cell.sr0).toBe(1 / 4);
      expect(cell.sr0_errors_as_failures).toBe(1 / 5);
      expect(cell.sr0_errors_delta).toBeCloseTo(1 / 5 - 1 / 4, 15);
      expect(cell.final_sr).toBe(3 / 4);
      expect(cell.final_sr_errors_as_failures).toBe(3 / 5);
      expect(cell.final_sr_errors_delta).toBeCloseTo(-0.15, 15);
      // Of the first-attempt failures (3, then 4 with the fault), two were repaired.
      expect(cell.repaired_share).toBe(2 / 3);
      expect(cell.repaired_share_errors_as_failures).toBe(2 / 4);
    });

    it('the rates over successful instances are the same under both: a fault never succeeds', () => {
      for (const rate of ['precision', 'recall', 'f1', 'phantom', 'hidden', 'bloat', 'udr'] as const) {
        expect(cell[`${rate}_errors_as_failures`]).toBe(cell[rate]);
        expect(cell[`${rate}_errors_delta`]).toBe(cell[rate] === null ? null : 0);
      }
    });

    it('the language pooled over agents, the domain and the repair depths count the fault too', () => {
      expect(report.languages[0]).toMatchObject({ n: 4, harness_errors: 1, final_sr: 3 / 4, final_sr_errors_as_failures: 3 / 5 });
      expect(report.domains[0]).toMatchObject({ n: 4, harness_errors: 1, sr0: 1 / 4, sr0_errors_as_failures: 1 / 5, final_sr_errors_as_failures: 3 / 5 });
      expect(report.weakest_domains[0]).toMatchObject({ sr0: 1 / 4, sr0_errors_as_failures: 1 / 5, domains: ['Data Processing'], domains_errors_as_failures: ['Data Processing'] });
      expect(report.repair_depth[0]).toMatchObject({ failed: 1, harness_errors: 1 });
    });

    it('keeps the existing fields and their meaning', () => {
      const leftOut = computeMetrics(records.filter((r) => r.status !== 'error'));
      expect(leftOut.cells[0]).toMatchObject({ n: cell.n, sr0: cell.sr0, final_sr: cell.final_sr, sr0_ci: cell.sr0_ci, harness_errors: 0, sr0_errors_delta: 0 });
    });
  });

  it('a cell of faults alone appears, undefined with them left out and 0 with them counted', () => {
    const report = computeMetrics([record({ agent: 'claude' }), fault({ agent: 'codex' }), fault({ agent: 'codex', task: 'p_02' })]);
    expect(report.cells.map((c) => c.agent)).toEqual(['claude', 'codex']);
    expect(report.cells[1]).toMatchObject({
      n: 0, harness_errors: 2, sr0: null, sr0_errors_as_failures: 0, sr0_errors_delta: null, final_sr: null, final_sr_errors_as_failures: 0,
      precision: null, precision_errors_as_failures: null, sr0_ci: null, udr: null,
    });
    expect(report.languages[0]).toMatchObject({ n: 1, harness_errors: 2, final_sr: 1, final_sr_errors_as_failures: 1 / 3 });
    expect(report.repair_depth.map((r) => [r.agent, r.failed, r.harness_errors])).toEqual([['claude', 0, 0], ['codex', 0, 2]]);
  });

  it('M8: a fault after a SystemLib first attempt is a SystemLib failure never recovered', () => {
    const cpp = { language: 'cpp' as const };
    const report = computeMetrics([
      repaired(1, { ...cpp, task: 'p_01', first_error_class: 'SystemLib' }),
      repaired(1, { ...cpp, task: 'p_02', first_error_class: 'Build' }),
      fault({ ...cpp, task: 'p_03', first_error_class: 'SystemLib' }),
      fault({ ...cpp, task: 'p_04' }),
    ]);
    expect(report.environment_gap[0]).toMatchObject({
      failures: 2, harness_errors: 2, syslib: 1, recovered: 1,
      slar: 1 / 2, slar_errors_as_failures: 2 / 4, slar_errors_delta: 0,
      egar: 1, egar_errors_as_failures: 1 / 2, egar_errors_delta: -0.5,
    });
  });

  it('M5 and M6: a fault takes its task out of the comparisons under both, so CDR and UCR agree', () => {
    const report = computeMetrics([
      record({ agent: 'claude', declared: ['a'] }),
      record({ agent: 'codex', declared: ['b'] }),
      record({ agent: 'claude', task: 'p_02', declared: ['a'] }),
      fault({ agent: 'codex', task: 'p_02' }),
      record({ agent: 'claude', trial: 2, declared: ['a'] }),
      fault({ agent: 'claude', task: 'p_02', trial: 2 }),
    ]);
    const all = report.cross_agent.find((r) => r.pair === 'all')!;
    expect(all).toMatchObject({ n: 1, cdr: 1, cdr_errors_as_failures: 1, cdr_errors_delta: 0 });
    expect(report).toMatchObject({ cdr_macro: 1, cdr_macro_errors_as_failures: 1, cdr_macro_errors_delta: 0 });
    expect(report.intra_agent[0]).toMatchObject({ agent: 'claude', tasks: 1, ucr: 1, ucr_errors_as_failures: 1, ucr_errors_delta: 0 });
  });

  it('pass@k counts a faulted trial as a failed one', () => {
    const report = computeMetrics([
      record({ trial: 1 }), record({ trial: 2 }), fault({ trial: 3 }),
      record({ task: 'p_02', trial: 1 }), record({ task: 'p_02', trial: 2 }), record({ task: 'p_02', trial: 3 }),
    ]);
    const k1 = report.pass_at_k.find((r) => r.k === 1)!;
    expect(k1.value).toBe(1);
    expect(k1.value_errors_as_failures).toBeCloseTo((2 / 3 + 1) / 2, 15);
    expect(k1.value_errors_delta).toBeCloseTo(-1 / 6, 15);
  });

  describe('over synthetic studies', () => {
    const records = syntheticRecords(4_000, 11);
    const report = computeMetrics(records);

    it('has faults, and each group adds its faults to n', () => {
      expect(report.excluded_errors).toBeGreaterThan(0);
      const faults = (agent: string, language: string) => records.filter((r) => r.status === 'error' && r.trial === 1 && r.agent === agent && r.language === language).length;
      for (const c of report.cells) expect(c.harness_errors).toBe(faults(c.agent, c.language));
      expect(report.cells.reduce((s, c) => s + c.harness_errors!, 0)).toBeGreaterThan(0);
    });

    it('a fault only lowers a success rate, never raises one, and moves no rate over successful instances', () => {
      for (const row of [...report.cells, ...report.languages, ...report.domains]) {
        for (const rate of ['sr0', 'final_sr'] as const) {
          if (row[rate] !== null) expect(row[`${rate}_errors_as_failures`]!).toBeLessThanOrEqual(row[rate]!);
        }
      }
      for (const row of [...report.cells, ...report.languages]) {
        for (const rate of ['precision', 'recall', 'f1', 'phantom', 'hidden', 'bloat'] as const) expect(row[`${rate}_errors_as_failures`]).toBe(row[rate]);
      }
      // pass@1 too; pass@k for larger k averages over the tasks with k trials, which a faulted trial can add.
      for (const row of report.pass_at_k.filter((r) => r.k === 1)) expect(row.value_errors_as_failures!).toBeLessThanOrEqual(row.value + 1e-12);
    });

    it('every delta is the second value less the first', () => {
      for (const r of secondDenominatorRows(report)) {
        if (r.left_out === null || r.as_failures === null) expect(r.delta).toBeNull();
        else expect(r.delta).toBe(r.as_failures - r.left_out);
      }
    });

    it('does not depend on the order of the records', () => {
      expect(computeMetrics(shuffled(records, mulberry32(5)))).toEqual(report);
    });

    it('without faults, both denominators agree everywhere', () => {
      const clean = computeMetrics(records.filter((r) => r.status !== 'error'));
      const rows = secondDenominatorRows(clean);
      expect(rows.length).toBeGreaterThan(100);
      for (const r of rows) expect(r.as_failures).toBe(r.left_out);
      expect(secondDenominatorRows(clean, true)).toEqual([]);
    });
  });

  describe('outputs', () => {
    const report = computeMetrics([record({ declared: ['a'], traced: ['a'], installed: ['a'] }), failed({ task: 'p_02' }), fault({ task: 'p_03' })]);

    it('JSON: each rate is followed by its second denominator and the difference', () => {
      const keys = Object.keys(report.cells[0]);
      expect(keys.slice(keys.indexOf('sr0'), keys.indexOf('sr0') + 3)).toEqual(['sr0', 'sr0_errors_as_failures', 'sr0_errors_delta']);
      expect(keys.slice(keys.indexOf('n'), keys.indexOf('n') + 2)).toEqual(['n', 'harness_errors']);
    });

    it('CSV: the same columns beside each rate, the old names kept', () => {
      const files = metricsToCsv(report);
      const header = files['cells.csv'].split('\n')[0].split(',');
      expect(header.slice(0, 5)).toEqual(['agent', 'language', 'n', 'harness_errors', 'successes']);
      expect(header).toEqual(expect.arrayContaining(['sr0', 'sr0_errors_as_failures', 'sr0_errors_delta', 'udr', 'udr_errors_as_failures', 'sr0_ci_low', 'sr0_ci_high']));
      expect(header).not.toContain('sr0_errors_as_failures_ci_low');
      const [cell] = parseCsvRecords(files['cells.csv']);
      expect(cell).toMatchObject({ n: '2', harness_errors: '1', final_sr: '0.5', final_sr_errors_as_failures: String(1 / 3) });
      expect(Number(cell.final_sr_errors_delta)).toBeCloseTo(1 / 3 - 1 / 2, 15);
      expect(parseCsvRecords(files['summary.csv'])[0]).toHaveProperty('cdr_macro_errors_as_failures');
      expect(parseCsvRecords(files['environment_gap.csv'])).toEqual([]);
      expect(files['domains.csv'].split('\n')[0]).toBe('agent,domain,n,harness_errors,sr0,sr0_errors_as_failures,sr0_errors_delta,final_sr,final_sr_errors_as_failures,final_sr_errors_delta,sr0_ci_low,sr0_ci_high,final_sr_ci_low,final_sr_ci_high');
      expect(files['repair_depth.csv'].split('\n')[0]).toMatch(/,failed,harness_errors$/);
    });

    it('table: the rates a fault changes, side by side with the difference', () => {
      const text = formatMetricsTable(report);
      expect(text).toContain('Both denominators: harness faults (status error) left out, and counted as failures (1 faults); the rates that change');
      expect(text).toMatch(/\nM1-M4, M7 cell\s+claude python\s+1\s+final_sr\s+0\.500\s+0\.333\s+-0\.167/);
      expect(text).toMatch(/\nM1-M4 language\s+all python\s+1\s+sr0\s+0\.500\s+0\.333\s+-0\.167/);
      expect(text).not.toMatch(/\nM1-M4, M7 cell\s+claude python\s+1\s+precision/);
      expect(formatMetricsTable(computeMetrics([record()]))).toContain('Both denominators: harness faults (status error) left out, and counted as failures: no harness fault, so every rate is the same under both');
    });
  });

  describe('pairRows', () => {
    type R = { id: string; n: number; x: number | null };
    const spec = { key: (r: R) => r.id, rates: ['x'], size: 'n' };

    it('follows the counted order, adds a group only faults make where it can make its empty row, and keeps a left-out row it cannot pair', () => {
      const left: R[] = [{ id: 'b', n: 2, x: 0.5 }, { id: 'z', n: 1, x: 1 }];
      const counted: R[] = [{ id: 'a', n: 1, x: 0 }, { id: 'b', n: 3, x: 1 / 3 }];
      expect(pairRows(left, counted, spec)).toEqual([
        { id: 'b', n: 2, harness_errors: 1, x: 0.5, x_errors_as_failures: 1 / 3, x_errors_delta: 1 / 3 - 0.5 },
        { id: 'z', n: 1, harness_errors: 0, x: 1, x_errors_as_failures: null, x_errors_delta: null },
      ]);
      expect(pairRows(left, counted, { ...spec, empty: (c: R) => ({ id: c.id, n: 0, x: null }) })[0]).toEqual({
        id: 'a', n: 0, harness_errors: 1, x: null, x_errors_as_failures: 0, x_errors_delta: null,
      });
    });

    it('a single value, and the CSV column order', () => {
      expect(pairedValue('cdr_macro', 0.5, 0.25)).toEqual({ cdr_macro: 0.5, cdr_macro_errors_as_failures: 0.25, cdr_macro_errors_delta: -0.25 });
      expect(pairedValue('cdr_macro', null, 0.25)).toEqual({ cdr_macro: null, cdr_macro_errors_as_failures: 0.25, cdr_macro_errors_delta: null });
      expect(columnsWithSecondDenominator(['a', 'n', 'x', 'y'], ['x'], 'n')).toEqual(['a', 'n', 'harness_errors', 'x', 'x_errors_as_failures', 'x_errors_delta', 'y']);
    });
  });
});
