import { nvidiaSmi, stage, summary, writeRun, type JobSpec } from './upstreamRun';

/** The C0 table the scenario is scored with (alpha and beta in it; gamma and delta outside). */
export const TOTALS = { 'Owner/Alpha': 50, 'owner/beta': 30 };

export const CATEGORIES = [
  'Owner@Alpha,Owner/Alpha,https://github.com/Owner/Alpha,aaaa,yes,yes,yes,not_applicable,not_applicable,not_applicable,3',
  'owner@beta,owner/beta,https://github.com/owner/beta,bbbb,yes,no,no,unknown,repo_not_supported,repo_not_supported,cpu',
  'owner@gamma,owner/gamma,https://github.com/owner/gamma,cccc,no,yes,yes,repo_not_supported,unknown,unknown,3',
];

const pyright = (missing: number, total: number, status: 'success' | 'failure' = 'success') =>
  stage(status, { stage: 'pyright', missing_packages_count: missing, total_imported_packages_count: total });

/**
 * Every quirk once: baseline fallbacks, a failed and an absent pyright, a repository outside the C0
 * table (baseline_imports.json, imports_detected.json), one without a categories row, a truncated
 * results.json, skipped stages, C4 on one GPU, missing > total, status words other than success,
 * a hallucination from the `int(x or 1)` exit-code bug, and a folder without job_summary.json.
 */
export const JOBS: JobSpec[] = [
  {
    dir: 'j1',
    summary: summary({ job_id: 'j1', baseline: 'claude', repo_url: 'https://github.com/Owner/Alpha.git', script_id: 'Owner@Alpha' }, [1000.0, 1100.1234]),
    nvidiaSmi: nvidiaSmi(1),
    report: { python_path: '/opt/venv/bin/python', python_version: '3.10.12', torch_version: '2.3.0', cuda_available: true, gpu_count: 1, ddp_expected_ok: false, env_tool: 'venv', env_name: 'venv', notes: '' },
    files: {
      'pyright/results.json': pyright(3, 40),
      'pyright/analysis.json': { missing_packages: ['a', 'b.sub', 'c'] },
      'cpu/results.json': stage('success'),
      'cuda/results.json': stage('success', { framework: 'pytorch', observed: { cuda_available: true, gpu_count: 1 } }),
      'single_gpu/results.json': stage('success'),
      'multi_gpu/results.json': stage('failure', { failure_category: 'insufficient_hardware' }),
      'hallucination/results.json': stage('failure', { hallucinations: { path: { count: 0, items: [] }, version: { count: 1, items: [{ type: 'torch_version_mismatch', reported: '2.3.0', observed: '2.2.0' }] }, capability: { count: 0, items: [] } } }),
      'env_size/results.json': stage('success', { observed: { env_prefix_size_MB: 2048.5 } }),
    },
  },
  {
    dir: 'j2',
    summary: summary({ job_id: 'j2', baseline: '', baseline_backend: 'claude', repo_url: 'https://github.com/owner/beta' }, [10, 60.5]),
    files: {
      'pyright/results.json': pyright(0, 0, 'failure'),
      'cpu/results.json': '{"status": "succ',
      'cuda/results.json': stage('failure', { observed: { cuda_available: false, gpu_count: 0 }, failure_category: 'insufficient_hardware' }),
      'single_gpu/results.json': stage('skipped', { skip_reason: 'repo_not_supported' }),
      'multi_gpu/results.json': stage('skipped', { skip_reason: 'repo_not_supported' }),
      'hallucination/results.json': stage('failure', { failure_category: 'missing_report', hallucinations: { path: { count: 0 }, version: { count: 0 }, capability: { count: 0 } } }),
    },
  },
  {
    dir: 'j3',
    summary: summary({ job_id: 'j3', baseline: null, baseline_backend: '  ', baseline_input: 'codex', repo_url: 'git@github.com:owner/gamma.git' }, [500, 400]),
    nvidiaSmi: nvidiaSmi(2),
    files: {
      'pyright/results.json': pyright(2, 10),
      'pyright/analysis.json': { missing_packages: ['x', 'y'] },
      'pyright/baseline_imports.json': { total_imported_packages_count: 12 },
      'cpu/results.json': stage('skipped', { skip_reason: 'repo_not_supported' }),
      'cuda/results.json': stage('success', { observed: { cuda_available: true, gpu_count: 2 } }),
      'single_gpu/results.json': stage('skipped', { skip_reason: 'not_applicable' }),
      'multi_gpu/results.json': stage('success', { exit_code: 0 }),
      'hallucination/results.json': stage('failure', { hallucinations: { path: { count: 0, items: [] }, version: { count: 0, items: [] }, capability: { count: 1, items: [{ type: 'ddp_expected_ok_but_multi_gpu_failed', reported: true }] } } }),
      'env_size/results.json': stage('success', { observed: { env_prefix_size_MB: 1000 } }),
    },
  },
  {
    dir: 'j4',
    summary: summary({ job_id: 'j4', baseline: 'codex', repo_url: 'https://github.com/owner/delta' }, [0, 10]),
    files: {
      'pyright/imports_detected.json': { total_imported_packages_count: 7 },
      'single_gpu/results.json': stage('success'),
      'multi_gpu/results.json': stage('failure'),
      'hallucination/results.json': { status: 'failure', metrics: { path_hallucinations_count: 1 } },
      'env_size/results.json': { status: 'success', metrics: { env_size_mb: '512' } },
    },
  },
  {
    dir: 'nested/j5',
    summary: summary({ job_id: 'j5', baseline: 'claude', repo_url: 'https://github.com/Owner/Alpha' }, [0, 200]),
    nvidiaSmi: nvidiaSmi(1),
    files: {
      'pyright/results.json': pyright(60, 40),
      'cpu/results.json': stage('success', { status: 'OK' }),
      'cuda/results.json': stage('success', { metrics: { cuda_available: null } }),
      'single_gpu/results.json': stage('success', { status: 'passed' }),
      'multi_gpu/results.json': stage('failure', { meta: { insufficient_hardware: 'need >=2 visible GPUs; found 1' } }),
      'env_size/results.json': stage('success', { observed: { env_prefix_size_MB: 4000 } }),
    },
  },
  { dir: 'stray', files: { 'cpu/results.json': stage('success') } },
];

export function writeScenario(): string {
  return writeRun(JOBS, CATEGORIES);
}
