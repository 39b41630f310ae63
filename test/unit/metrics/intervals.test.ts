import { bootstrapMeansOverTasks, wilson, wilsonOfShare } from '../../../src/metrics/intervals';
import { flakyTasks, passAtK, passAtKRows } from '../../../src/metrics/passAtK';
import { computeMetrics } from '../../../src/metrics';
import { prepareInstances } from '../../../src/metrics/instances';
import { paperInstanceRecords } from '../../helpers/reportRecords';

describe('Wilson intervals', () => {
  test('textbook values, and exact ends at 0 and n', () => {
    expect(wilson(0, 10)).toEqual({ low: 0, high: expect.closeTo(0.2775, 4) });
    expect(wilson(10, 10)).toEqual({ low: expect.closeTo(0.7225, 4), high: 1 });
    expect(wilson(5, 10)).toEqual({ low: expect.closeTo(0.2366, 4), high: expect.closeTo(0.7634, 4) });
    expect(wilson(0, 0)).toBeNull();
    expect(wilsonOfShare(null, 5)).toBeNull();
    expect(wilsonOfShare(0.4, 5)).toEqual(wilson(2, 5));
  });

  test('agree with the closed form (2np + z² ± z√(z² + 4np(1−p))) / (2(n + z²))', () => {
    const z = 1.959963984540054;
    for (const [k, n] of [[81, 263], [1, 3], [7, 40], [299, 300]]) {
      const p = k / n;
      const root = z * Math.sqrt(z * z + 4 * n * p * (1 - p));
      const ci = wilson(k, n)!;
      expect(ci.low).toBeCloseTo((2 * n * p + z * z - root) / (2 * (n + z * z)), 12);
      expect(ci.high).toBeCloseTo((2 * n * p + z * z + root) / (2 * (n + z * z)), 12);
    }
  });
});

describe('the bootstrap over tasks', () => {
  const items = Array.from({ length: 40 }, (_, i) => ({ task: `t${i % 20}`, x: (i * 7919) % 13 / 13 }));
  const meanX = (s: readonly { x: number }[]) => ({ mean: s.length === 0 ? null : s.reduce((a, b) => a + b.x, 0) / s.length });
  const boot = (xs: readonly { task: string; x: number | null }[], o = {}) => bootstrapMeansOverTasks(xs, ['mean'], (i) => ({ mean: i.x }), o);

  test('the same seed gives the same interval; another seed a different one', () => {
    const a = boot(items, { seed: 7, resamples: 500 });
    expect(boot(items, { seed: 7, resamples: 500 })).toEqual(a);
    expect(boot(items, { seed: 8, resamples: 500 })).not.toEqual(a);
  });

  test('holds the point estimate and narrows as the tasks grow', () => {
    const point = meanX(items).mean!;
    const small = boot(items).mean!;
    expect(small.low).toBeLessThanOrEqual(point);
    expect(small.high).toBeGreaterThanOrEqual(point);
    const many = Array.from({ length: 16 }, (_, copy) => items.map((i) => ({ ...i, task: `${i.task}-${copy}` }))).flat();
    const large = boot(many).mean!;
    expect(large.high - large.low).toBeLessThan((small.high - small.low) / 2);
  });

  test('a task is resampled whole: with every instance of a task alike, the interval is that of the tasks', () => {
    const clustered = [...Array(10).fill({ task: 'a', x: 1 }), { task: 'b', x: 0 }];
    const ci = boot(clustered, { resamples: 2000 }).mean!;
    // Resampling tasks, the mean is 1 (both a), 0 (both b) or 10/11: the interval spans 0 to 1.
    expect(ci).toEqual({ low: 0, high: 1 });
  });

  test('null where no instance defines the mean; an instance without a value leaves the mean', () => {
    expect(boot([])).toEqual({ mean: null });
    expect(boot([{ task: 'a', x: null }])).toEqual({ mean: null });
    expect(boot([{ task: 'a', x: null }, { task: 'b', x: 0.5 }, { task: 'b', x: 0.5 }], { resamples: 200 }).mean).toEqual({ low: 0.5, high: 0.5 });
  });

  test('the means match the summaries\' own: the point estimate lies in each interval (paper data below)', () => {
    expect(meanX(items).mean).toBeGreaterThan(0);
  });
});

describe('pass@k and flaky tasks', () => {
  test('the unbiased estimator, by hand', () => {
    expect(passAtK(3, 1, 1)).toBeCloseTo(1 / 3, 12);
    expect(passAtK(3, 1, 2)).toBeCloseTo(2 / 3, 12);
    expect(passAtK(3, 1, 3)).toBe(1);
    expect(passAtK(3, 0, 2)).toBe(0);
    expect(passAtK(5, 2, 2)).toBeCloseTo(1 - 3 / 10, 12); // 1 - C(3,2)/C(5,2)
    expect(() => passAtK(2, 1, 3)).toThrow(/needs at least 3 trials/);
  });

  test('on the paper\'s three Claude trials: pass@1 is the mean success over trials, pass@k grows with k, flaky tasks disagree', () => {
    const records = paperInstanceRecords();
    const { instances } = prepareInstances(records);
    const rows = passAtKRows(instances);
    expect(new Set(rows.map((r) => r.agent))).toEqual(new Set(['claude']));
    for (const language of ['python', 'java', 'javascript', 'cpp'] as const) {
      const mine = rows.filter((r) => r.language === language);
      expect(mine.map((r) => r.k)).toEqual([1, 2, 3]);
      const own = instances.filter((i) => i.agent === 'claude' && i.language === language);
      expect(mine[0].value).toBeCloseTo(own.filter((i) => i.success).length / own.length, 2);
      expect(mine[1].value).toBeGreaterThanOrEqual(mine[0].value);
      expect(mine[2].value).toBeGreaterThanOrEqual(mine[1].value);
    }
    const flaky = flakyTasks(instances);
    for (const f of flaky) expect(f.successes > 0 && f.successes < f.trials).toBe(true);
    const report = computeMetrics(records);
    expect(report.flaky).toEqual(flaky);
    // Beside each value, the same with harness faults counted as failures: the paper's data has none, so they agree.
    expect(report.pass_at_k).toEqual(rows.map((r) => ({ ...r, value_errors_as_failures: r.value, value_errors_delta: 0 })));
  });
});

describe('the intervals in envgap metrics', () => {
  test('every rate of cells, languages, domains and the other rows has its x_ci, holding x', () => {
    const report = computeMetrics(paperInstanceRecords());
    const rows: [object[], string[]][] = [
      [report.cells, ['sr0', 'final_sr', 'repaired_share', 'precision', 'recall', 'f1', 'phantom', 'hidden', 'bloat', 'udr']],
      [report.languages, ['sr0', 'final_sr', 'repaired_share', 'precision', 'recall', 'f1', 'phantom', 'hidden', 'bloat']],
      [report.domains, ['sr0', 'final_sr']],
      [report.environment_gap, ['slar', 'egar']],
      [report.intra_agent, ['ucr']],
      [report.cross_agent, ['cdr']],
    ];
    for (const [list, fields] of rows) {
      for (const row of list as Record<string, unknown>[]) {
        for (const f of fields) {
          expect(row).toHaveProperty(`${f}_ci`);
          const x = row[f] as number | null;
          const ci = row[`${f}_ci`] as { low: number; high: number } | null;
          if (x === null) expect(ci).toBeNull();
          else expect({ f, within: ci !== null && ci.low <= x + 1e-12 && x <= ci.high + 1e-12 }).toEqual({ f, within: true });
        }
      }
    }
    expect(report.intervals).toEqual({ level: 0.95, bootstrap_seed: 20261201, bootstrap_resamples: 1000 });
  });
});
