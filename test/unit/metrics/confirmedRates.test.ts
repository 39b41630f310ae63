import { computeMetrics, formatMetricsTable, metricsToCsv } from '../../../src/metrics';
import { confirmedSummary } from '../../../src/metrics/confirmedRates';
import { instances, record } from './records';

describe('phantom and bloat rates confirmed by removal, beside M3', () => {
  const checked = record({ task: 'p_01', declared: ['a', 'b', 'c', 'd'], traced: ['a'], installed: ['a', 'b', 'x', 'y'], phantom_check: { b: 'unneeded', c: 'needed' }, bloat_check: { b: 'unneeded', x: 'unneeded', y: 'needed' } });
  const unchecked = record({ task: 'p_02', declared: ['a', 'z'], traced: ['a'] });

  test('over the checked instances only: the trace says 3 of 4 are phantoms, removal confirms 1; names counted unneeded/needed/untried', () => {
    expect(confirmedSummary(instances(checked, unchecked))).toEqual({
      confirmed: {
        phantom_n: 1, phantom_traced: 0.75, phantom_confirmed: 0.25, phantom_names: 3, phantom_unneeded: 1, phantom_needed: 1, phantom_untried: 1,
        bloat_n: 1, bloat_traced: 0.75, bloat_confirmed: 0.5, bloat_names: 3, bloat_unneeded: 2, bloat_needed: 1, bloat_untried: 0,
      },
    });
  });

  test('no instance checked: nothing added, so reports of unconfirmed studies are as they were', () => {
    expect(confirmedSummary(instances(unchecked))).toEqual({});
    const report = computeMetrics([unchecked]);
    expect(report.languages[0]).not.toHaveProperty('confirmed');
    expect(formatMetricsTable(report)).not.toContain('confirmed by removal');
    expect(Object.keys(metricsToCsv(report))).not.toContain('confirmed.csv');
  });

  test('the report: the cell and the pooled language carry them; the table and the CSV show them', () => {
    const report = computeMetrics([checked, unchecked]);
    expect(report.cells[0]!.confirmed).toMatchObject({ phantom_n: 1, phantom_confirmed: 0.25 });
    expect(report.languages[0]!.confirmed).toMatchObject({ phantom_n: 1, bloat_confirmed: 0.5 });
    expect(formatMetricsTable(report)).toMatch(/Phantoms and bloat confirmed by removal[^\n]*\n.*\n.*\nclaude\s+Python\s+1\s+0\.750\s+0\.250\s+1\/1\/1\s+1\s+0\.750\s+0\.500\s+2\/1\/0/);
    expect(metricsToCsv(report)['confirmed.csv']).toBe(
      'agent,language,phantom_n,phantom_traced,phantom_confirmed,phantom_names,phantom_unneeded,phantom_needed,phantom_untried,bloat_n,bloat_traced,bloat_confirmed,bloat_names,bloat_unneeded,bloat_needed,bloat_untried\n' +
        'claude,python,1,0.75,0.25,3,1,1,1,1,0.75,0.5,3,2,1,0\nall,python,1,0.75,0.25,3,1,1,1,1,0.75,0.5,3,2,1,0\n',
    );
  });
});
