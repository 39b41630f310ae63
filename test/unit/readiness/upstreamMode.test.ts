import { computeReadinessMetrics } from '../../../src/metrics/readiness';
import { importResearchEnvBenchRun } from '../../../src/importers/researchenvbench';
import { TOTALS, writeScenario } from './scenario';

// The numbers below are worked by hand from m5/build_master_table.py's rules (scenario.ts says
// which job carries which quirk); upstream's own script, run once on this scenario, gave the same.
describe('upstream-compatible scoring (m5 build_summary_rows)', () => {
  const records = importResearchEnvBenchRun(writeScenario(), { c0Totals: TOTALS });
  const metrics = computeReadinessMetrics(records, { mode: 'upstream', c0Totals: TOTALS });
  const group = (baseline: string) => {
    const g = metrics.groups.find((x) => x.baseline === baseline);
    if (g === undefined) throw new Error(`no group ${baseline}`);
    return g;
  };

  it('groups by run and the baseline fallback chain, leaving out a folder without job_summary.json', () => {
    expect(metrics.groups.map((g) => [g.run_id, g.baseline, g.jobs])).toEqual([
      ['r1', 'claude', 3], // j1 baseline, j2 baseline_backend, j5
      ['r1', 'codex', 2], // j3 baseline_input, j4
    ]);
  });

  it('C0: table totals, baseline_imports and pyright totals outside it, a failed or absent pyright as 0 missing', () => {
    // claude: 3 + 0 (j2's failed pyright) + 40 (j5's 60 capped at its reported 40) over 50 + 30 + 50 (the table).
    expect(group('claude').c0).toEqual({ missing: 43, total: 130, unknown: 1 });
    // codex: j3 2 missing over baseline_imports' 12; j4 has no pyright result, 0 over imports_detected's 7.
    expect(group('codex').c0).toEqual({ missing: 2, total: 19, unknown: 1 });
  });

  it('C1-C4: a truncated or absent result fails, a skip stays in the denominator, C4 on one GPU fails', () => {
    const claude = group('claude');
    expect([claude.c1, claude.c2, claude.c3, claude.c4].map((c) => [c.success, c.applicable, c.failed, c.skipped])).toEqual([
      [2, 3, 1, 0], // j2's truncated cpu results.json fails; j5's "OK" succeeds
      [2, 3, 1, 0], // over all jobs: beta (no GPU stage) counts; cuda_available false fails
      [2, 2, 0, 0], // beta does not support single_gpu; "passed" succeeds
      [0, 2, 2, 0], // both alpha jobs ran on one GPU
    ]);
    const codex = group('codex');
    expect([codex.c1, codex.c2, codex.c3, codex.c4].map((c) => [c.success, c.applicable, c.failed, c.skipped])).toEqual([
      [0, 1, 1, 0], // gamma does not support cpu; delta has no categories row, so it does, and has no result
      [1, 2, 1, 0],
      [1, 2, 0, 1], // j3's single_gpu skipped (not_applicable) still counts
      [1, 2, 1, 0],
    ]);
  });

  it('C5 sums the counts as reported, flat metrics keys included, exit-code-bug hallucinations kept', () => {
    expect(group('claude').c5).toEqual({ path: 0, version: 1, capability: 0 });
    expect(group('codex').c5).toEqual({ path: 1, version: 0, capability: 1 });
  });

  it('averages time over jobs with both timestamps (2 decimals) and size in GB (3 decimals)', () => {
    // (100.123 + 50.5 + 200.0) / 3 = 116.8743..; (2048.5 + 4000) / 2 / 1024 = 2.95336..
    expect([group('claude').agent_time_avg_s, group('claude').agent_time_jobs]).toEqual([116.87, 3]);
    expect([group('claude').env_size_avg_gb, group('claude').env_size_jobs]).toEqual([2.953, 2]);
    // j3's agent_end precedes its start; (1000 + 512) / 2 / 1024 = 0.73828..
    expect([group('codex').agent_time_avg_s, group('codex').agent_time_jobs]).toEqual([10, 1]);
    expect(group('codex').env_size_avg_gb).toBe(0.738);
  });

  it('takes its C0 table from the options: the same run scored with another table', () => {
    const other = computeReadinessMetrics(records, { mode: 'upstream', c0Totals: { 'owner/gamma': 99 } });
    // alpha and beta leave the table: j1 and j5 fall back to pyright's 40, j2 to its 0; gamma takes 99.
    expect(other.groups.map((g) => g.c0.total)).toEqual([80, 99 + 7]);
  });

  it('scores envgap records (no upstream values) by the same rules', () => {
    const native = records.map(({ upstream: _, ...r }) => ({ ...r, study: 'r1' }));
    const again = computeReadinessMetrics(native, { mode: 'upstream', c0Totals: TOTALS });
    // Taken from the records themselves, C4 on one GPU is a skip: still a non-success upstream.
    expect(again.groups.find((g) => g.baseline === 'claude')?.c4).toMatchObject({ success: 0, applicable: 2 });
    expect(() => computeReadinessMetrics(records, { mode: 'upstream' })).toThrow(/C0 totals/);
  });
});
