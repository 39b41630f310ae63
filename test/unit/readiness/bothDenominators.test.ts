import { computeReadinessMetrics, formatReadinessTable, readinessToCsv } from '../../../src/metrics/readiness';
import { importResearchEnvBenchRun } from '../../../src/importers/researchenvbench';
import { withStageRates } from '../../../src/metrics/readiness/stageRates';
import { TOTALS, writeScenario } from './scenario';

describe('readiness stages under both denominators: harness faults left out, and counted as failures', () => {
  const imported = importResearchEnvBenchRun(writeScenario(), { c0Totals: TOTALS });

  it('a stage rate by hand', () => {
    expect(withStageRates({ success: 2, applicable: 3, failed: 1, skipped: 0, excluded: 0 }, 1)).toMatchObject({
      harness_errors: 1, rate: 2 / 3, rate_errors_as_failures: 2 / 4, rate_errors_delta: 2 / 4 - 2 / 3,
    });
    expect(withStageRates({ success: 0, applicable: 0, failed: 0, skipped: 0, excluded: 0 }, 2)).toMatchObject({ rate: null, rate_errors_as_failures: 0, rate_errors_delta: null });
    expect(withStageRates({ success: 0, applicable: 0, failed: 0, skipped: 0, excluded: 0 }, 0)).toMatchObject({ rate: null, rate_errors_as_failures: null });
  });

  it('without faults both agree', () => {
    const m = computeReadinessMetrics(imported, { mode: 'envgap', c0Totals: TOTALS });
    for (const g of m.groups) for (const s of ['c1', 'c2', 'c3', 'c4'] as const) {
      expect(g[s].harness_errors).toBe(0);
      expect(g[s].rate_errors_as_failures).toBe(g[s].rate);
    }
  });

  it('a faulted job counts as a failure of each stage it supports, except where its own result left the denominator', () => {
    // claude's C1 is 2/3; one more claude job, a copy of a CPU job, ends in a harness fault.
    const cpuJob = imported.find((r) => r.agent === 'claude' && r.supports.includes('cpu'))!;
    const fault = { ...cpuJob, repo: `${cpuJob.repo}-again`, status: 'error' as const, error: { kind: 'docker', message: 'daemon gone' } };
    const m = computeReadinessMetrics([...imported, fault], { mode: 'envgap', c0Totals: TOTALS });
    const claude = m.groups.find((g) => g.baseline === 'claude')!;
    expect(claude.errors).toBe(1);
    expect(claude.c1).toMatchObject({ success: 2, applicable: 3, harness_errors: 1, rate: 2 / 3, rate_errors_as_failures: 2 / 4 });
    // C4 left the denominator for want of GPUs in every claude job, the faulted one's included: nothing to count.
    expect(claude.c4).toMatchObject({ applicable: 0, harness_errors: 0, rate: null, rate_errors_as_failures: null });
    expect(formatReadinessTable(m)).toContain('2/3 (2/4 with faults)');
    const [header, first] = readinessToCsv(m).split('\n');
    const row = Object.fromEntries(header.split(',').map((h, i) => [h, first.split(',')[i]]));
    expect(row).toMatchObject({ baseline: 'claude', c1_harness_errors: '1', c1_rate_errors_as_failures: '0.5' });
    expect(Number(row.c1_rate_errors_delta)).toBeCloseTo(0.5 - 2 / 3, 15);
  });
});
