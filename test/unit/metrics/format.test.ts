import { parseCsvRecords } from '../../../src/catalog/csv';
import { syntheticRecords } from '../../../src/metrics/synthetic/syntheticRecords';
import { computeMetrics, formatMetricsTable, metricsToCsv } from '../../../src/metrics';
import { toCsv } from '../../../src/metrics/csvText';

describe('report output', () => {
  const report = computeMetrics(syntheticRecords(2_000, 3));

  it('the table starts with the Table 4 layout: one row per agent and language, then "all"', () => {
    const text = formatMetricsTable(report);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^envgap metrics: 2000 records, primary trial 1, \d+ left out \(status error\), \d+ left out \(Environment\)$/);
    expect(lines[2]).toMatch(/^agent\s+language\s+n\s+SR0 %\s+final SR %\s+repaired %\s+P\s+R\s+F1/);
    expect(text).toMatch(/\nclaude\s+Python\s+\d+/);
    expect(text).toMatch(/\nall\s+C\+\+\s+\d+/);
    expect(text).toContain('CDR macro average');
    expect(text).toContain('C++ environment gap (M8)');
  });

  it('csv has one file per section, each parseable, with a row per report row', () => {
    const files = metricsToCsv(report);
    expect(Object.keys(files).sort()).toEqual([
      'cells.csv', 'cross_agent.csv', 'domains.csv', 'environment_gap.csv', 'flaky.csv', 'frequent_packages.csv', 'intra_agent.csv',
      'languages.csv', 'pass_at_k.csv', 'repair_depth.csv', 'spearman.csv', 'summary.csv', 'udr_macro.csv', 'usage.csv', 'weakest_domains.csv',
    ]);
    const cells = parseCsvRecords(files['cells.csv']);
    expect(cells).toHaveLength(report.cells.length);
    expect(Number(cells[0].precision)).toBe(report.cells[0].precision);
    // Each rate with an interval has its two ends beside the other columns.
    expect(Number(cells[0].sr0_ci_low)).toBe(report.cells[0].sr0_ci!.low);
    expect(Number(cells[0].phantom_ci_high)).toBe(report.cells[0].phantom_ci!.high);
    expect(parseCsvRecords(files['pass_at_k.csv'])).toHaveLength(report.pass_at_k.length);
    expect(parseCsvRecords(files['summary.csv'])[0]).toMatchObject({ records: '2000', primary_trial: '1' });
    expect(parseCsvRecords(files['cross_agent.csv'])).toHaveLength(report.cross_agent.length);
  });

  it('csv quotes what needs quoting and writes null as an empty field', () => {
    expect(toCsv(['a', 'b'], [['x, "y"', null], [1.5, true]])).toBe('a,b\n"x, ""y""",\n1.5,true\n');
  });
});
