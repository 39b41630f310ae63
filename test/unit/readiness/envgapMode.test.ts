import { computeReadinessMetrics } from '../../../src/metrics/readiness';
import { importResearchEnvBenchRun } from '../../../src/importers/researchenvbench';
import { TOTALS, writeScenario } from './scenario';

describe('envgap scoring of the same run: the upstream quirks fixed', () => {
  const records = importResearchEnvBenchRun(writeScenario(), { c0Totals: TOTALS });
  const envgap = computeReadinessMetrics(records, { mode: 'envgap', c0Totals: TOTALS });
  const upstream = computeReadinessMetrics(records, { mode: 'upstream', c0Totals: TOTALS });
  const group = (m: typeof envgap, baseline: string) => {
    const g = m.groups.find((x) => x.baseline === baseline);
    if (g === undefined) throw new Error(`no group ${baseline}`);
    return g;
  };

  it('groups by agent', () => {
    expect(envgap.groups.map((g) => [g.baseline, g.jobs])).toEqual([['claude', 3], ['codex', 2]]);
  });

  it('C0 leaves out a failed or absent pyright run (counted unknown) instead of counting 0 missing', () => {
    // claude: j1 3 names + j5 40 over 50 + 50; j2's failed run and its 30 leave.
    expect(group(envgap, 'claude').c0).toEqual({ missing: 43, total: 100, unknown: 1 });
    expect(group(upstream, 'claude').c0.total - group(envgap, 'claude').c0.total).toBe(30);
    // codex: j3 alone; j4 had no pyright result.
    expect(group(envgap, 'codex').c0).toEqual({ missing: 2, total: 12, unknown: 1 });
  });

  it('C2 counts only jobs where a GPU stage applies', () => {
    // beta supports neither GPU stage: upstream's 2/3 is 2/2.
    expect(group(envgap, 'claude').c2).toMatchObject({ success: 2, applicable: 2, excluded: 0 });
  });

  it('a skip for want of hardware or applicability leaves the denominator', () => {
    // C4 on one GPU: upstream's 0/2 failures are 0/0 here, both excluded.
    expect(group(envgap, 'claude').c4).toMatchObject({ success: 0, applicable: 0, excluded: 2 });
    // j3's single_gpu skipped not_applicable: upstream's 1/2 is 1/1.
    expect(group(envgap, 'codex').c3).toMatchObject({ success: 1, applicable: 1, excluded: 1 });
  });

  it('a truncated or absent result still fails', () => {
    expect(group(envgap, 'claude').c1).toMatchObject({ success: 2, applicable: 3, failed: 1 });
    expect(group(envgap, 'codex').c1).toMatchObject({ success: 0, applicable: 1, failed: 1 });
  });

  it('C5 drops a ddp_expected_ok hallucination when the multi-GPU stage succeeded (the int(x or 1) bug)', () => {
    expect(group(upstream, 'codex').c5.capability).toBe(1);
    expect(group(envgap, 'codex').c5).toEqual({ path: 1, version: 0, capability: 0 });
  });

  it('averages unrounded values', () => {
    const claude = group(envgap, 'claude');
    expect(claude.agent_time_avg_s).toBeCloseTo((100.1234 + 50.5 + 200) / 3, 9);
    expect(claude.env_size_avg_gb).toBeCloseTo((2048.5 + 4000) / 2 / 1024, 6);
  });

  it('leaves records that ended in a harness error out of every stage', () => {
    const [first, ...rest] = records;
    const errored = { ...first, status: 'error' as const, error: { kind: 'docker', message: 'daemon gone' } };
    const m = computeReadinessMetrics([errored, ...rest], { mode: 'envgap', c0Totals: TOTALS });
    const claude = group(m, 'claude');
    expect([claude.jobs, claude.errors, claude.c1.applicable, claude.c0.total]).toEqual([3, 1, 2, 50]);
  });
});
