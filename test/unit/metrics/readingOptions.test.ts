import { computeMetrics } from '../../../src/metrics';
import { record, repaired } from './records';

// Two readings the record makes possible: D1 without Maven's test scope, and success without human fixes.
describe('--exclude-test-scope', () => {
  const java = record({ language: 'java', declared: ['gson', 'junit'], declared_test: ['junit'], installed: ['gson', 'junit'], traced: ['gson'] });

  it('by default D1 is every artifact under <dependencies>, so the test-scoped junit is a phantom', () => {
    const cell = computeMetrics([java]).cells[0];
    expect(cell.phantom).toBe(0.5);
    expect(cell.precision).toBe(0.5);
  });

  it('read without the test scope, junit is not declared at all', () => {
    const report = computeMetrics([java], { excludeTestScope: true });
    expect(report.exclude_test_scope).toBe(true);
    expect(report.cells[0].phantom).toBe(0);
    expect(report.cells[0].precision).toBe(1);
  });
});

describe('--exclude-human-repairs', () => {
  const byAgent = repaired(1, { task: 'p_01' });
  const byHuman = repaired(2, { task: 'p_02', human_iterations: [2] });
  const humanAfterSuccess = repaired(1, { task: 'p_03', human_iterations: [3] });

  it('by default every success counts', () => {
    expect(computeMetrics([byAgent, byHuman, humanAfterSuccess]).cells[0]).toMatchObject({ successes: 3, final_sr: 1 });
  });

  it('without human repairs, a success reached through a person\'s iteration is not the agent\'s', () => {
    const report = computeMetrics([byAgent, byHuman, humanAfterSuccess], { excludeHumanRepairs: true });
    expect(report.exclude_human_repairs).toBe(true);
    expect(report.cells[0]).toMatchObject({ n: 3, successes: 2 });
    expect(report.cells[0].final_sr).toBeCloseTo(2 / 3);
  });
});
