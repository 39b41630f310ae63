import * as fs from 'node:fs';
import * as path from 'node:path';
import { ReadinessRecord } from '../../../src/domain/readiness';
import { researchEnvBenchRaw } from '../../../src/domain/readinessUpstream';
import { importResearchEnvBenchRun } from '../../../src/importers/researchenvbench';
import { TOTALS, writeScenario } from './scenario';
import { stage, summary, writeRun } from './upstreamRun';

describe('importing a ResearchEnvBench run directory', () => {
  const runDir = writeScenario();
  const records = importResearchEnvBenchRun(runDir, { c0Totals: TOTALS });
  const byJob = (id: string) => {
    const r = records.find((x) => researchEnvBenchRaw(x)?.job_id === id);
    if (r === undefined) throw new Error(`no job ${id}`);
    return r;
  };

  it('makes one valid record per folder holding job_summary.json, at any depth under jobs/', () => {
    expect(records.map((r) => researchEnvBenchRaw(r)?.job_dir)).toEqual(['jobs/j1', 'jobs/j2', 'jobs/j3', 'jobs/j4', 'jobs/nested/j5']);
    for (const r of records) expect(ReadinessRecord.safeParse(r).success).toBe(true);
  });

  it('names agents by the baseline fallbacks, repositories by owner/name, trials per agent and repository', () => {
    expect(records.map((r) => [r.agent, r.repo, r.trial, r.study])).toEqual([
      ['claude', 'Owner/Alpha', 1, 'r1'],
      ['claude', 'owner/beta', 1, 'r1'],
      ['codex', 'owner/gamma', 1, 'r1'],
      ['codex', 'owner/delta', 1, 'r1'],
      ['claude', 'Owner/Alpha', 2, 'r1'],
    ]);
  });

  it('reads supports from the categories snapshot; a repository without a row supports everything, as upstream reads it', () => {
    expect(records.map((r) => r.supports.join('+'))).toEqual(['cpu+single_gpu+multi_gpu', 'cpu', 'single_gpu+multi_gpu', 'cpu+single_gpu+multi_gpu', 'cpu+single_gpu+multi_gpu']);
  });

  it('maps C0 with its names and denominator, and an absent or truncated result to a failure saying so', () => {
    expect(byJob('j1').stages.c0).toMatchObject({ status: 'success', missing: ['a', 'b', 'c'], total: 50 });
    expect(byJob('j3').stages.c0).toMatchObject({ status: 'success', missing: ['x', 'y'], total: 12 });
    expect(byJob('j4').stages.c0).toMatchObject({ status: 'failure', failure_category: 'missing_report', total: 7 });
    expect(byJob('j2').stages.c1).toMatchObject({ status: 'failure', failure_category: 'invalid_json' });
    expect(byJob('j2').stages.c1.error_excerpt).toContain(path.join('j2', 'benchmark', 'build_output', 'cpu', 'results.json'));
  });

  it('turns a C3/C4 failure for want of GPUs into a skip only where the machine had too few', () => {
    expect(byJob('j1').stages.c4).toMatchObject({ status: 'skipped', skip_reason: 'insufficient_hardware' });
    expect(byJob('j5').stages.c4).toMatchObject({ status: 'skipped', skip_reason: 'insufficient_hardware' });
    expect(byJob('j4').stages.c4).toMatchObject({ status: 'failure', failure_category: 'runtime' });
    expect(byJob('j3').stages.c1).toMatchObject({ status: 'skipped', skip_reason: 'not_applicable' });
    // upstream's own reading stays a failure
    expect(researchEnvBenchRaw(byJob('j1'))?.status.c4).toBe('failed');
  });

  it('keeps C2 observations, C5 findings, the report, GPU, time and size', () => {
    const j1 = byJob('j1');
    expect(j1.stages.c2.observed).toEqual({ framework: 'torch', framework_version: null, cuda_available: true, device_count: 1, cuda_version: null });
    expect(j1.stages.c5.findings).toEqual([{ kind: 'version', field: 'torch_version', claimed: '2.3.0', observed: '2.2.0' }]);
    expect(byJob('j3').stages.c5.findings).toEqual([{ kind: 'capability', field: 'ddp_expected_ok', claimed: true, observed: null }]);
    expect(j1.report?.torch_version).toBe('2.3.0');
    expect(byJob('j2').report_problem).toBe('missing_report');
    expect(j1.gpu).toEqual({ name: 'NVIDIA H100 80GB HBM3', driver_version: '535.104.05', count: 1 });
    expect(j1.env_size_bytes).toBe(Math.round(2048.5 * 1024 * 1024));
    expect(j1.time_to_ready_s).toBeCloseTo(100.1234, 9);
    expect(researchEnvBenchRaw(j1)?.agent_wall_time_sec).toBe(100.123);
    expect(byJob('j3').session).toBeNull();
  });

  it('names the file and the field of a bad job_summary.json', () => {
    const bad = writeRun([{ dir: 'j', summary: summary({ baseline: 7 }) }], []);
    expect(() => importResearchEnvBenchRun(bad, { c0Totals: {} })).toThrow(/jobs\/j\/job_summary\.json: field baseline: /);
    const truncated = writeRun([{ dir: 'j', summary: '{"run_id": ' }], []);
    expect(() => importResearchEnvBenchRun(truncated, { c0Totals: {} })).toThrow(/jobs\/j\/job_summary\.json: not JSON/);
  });

  it('needs the categories: the run snapshot, else the file given', () => {
    const run = writeRun([{ dir: 'j', summary: summary({ baseline: 'a', repo_url: 'https://github.com/o/r' }), files: { 'cpu/results.json': stage('success') } }], null);
    expect(() => importResearchEnvBenchRun(run, { c0Totals: {} })).toThrow(/no scripts_repos_test_categories/);
    const csv = path.join(run, 'categories.csv');
    fs.writeFileSync(csv, 'repo_slug,repo,git_link,supports_cpu,supports_single_gpu,supports_multi_gpu\no@r,o/r,,yes,no,no\n');
    expect(importResearchEnvBenchRun(run, { c0Totals: {}, categoriesCsv: csv })[0].supports).toEqual(['cpu']);
    expect(() => importResearchEnvBenchRun(path.join(run, 'nowhere'))).toThrow(/no jobs\/ folder/);
  });

  it('uses the shipped copy of upstream C0 table by default', () => {
    const run = writeRun([{ dir: 'j', summary: summary({ baseline: 'a', repo_url: 'https://github.com/NVIDIA/kvpress' }), files: { 'pyright/results.json': stage('success', { missing_packages_count: 1, total_imported_packages_count: 3 }) } }], []);
    const shipped = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../data/researchenvbench/c0_repo_baseline_totals.json'), 'utf8')) as { repos: Record<string, number> };
    expect(importResearchEnvBenchRun(run)[0].stages.c0.total).toBe(shipped.repos['NVIDIA/kvpress']);
  });
});
