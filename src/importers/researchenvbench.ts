import * as fs from 'node:fs';
import * as path from 'node:path';
import { SUPPORTS, type ReadinessRecord } from '../domain/readiness';
import { upstreamSupported, type ResearchEnvBenchRaw } from '../domain/readinessUpstream';
import { c0TotalsFrom, upstreamC0Total, type C0Totals } from '../metrics/readiness/c0Totals';
import { pythonRound } from '../metrics/readiness/pythonRound';
import { findCategoriesRow, indexCategories, parseCategoriesCsv, type CategoriesIndex } from './researchenvbenchCategories';
import { readC0Totals } from './researchenvbenchC0Totals';
import { findJobDirs, readUpstreamJson } from './researchenvbenchFiles';
import { agentWallSeconds, gpuOf, pickBaseline, readAgentReport, readJobSummary, sessionOf } from './researchenvbenchJob';
import { c0Result, c2Result, c5Result, stageResult, upstreamC0, upstreamC2Status, upstreamC5, upstreamEnvSizeMb, upstreamStatus, withHardwareSkip } from './researchenvbenchStages';
import { repoFullName } from './researchenvbenchValues';

export interface ResearchEnvBenchImportOptions {
  /** C0 denominators by owner/name; default the shipped copy of upstream's table. */
  c0Totals?: Record<string, number>;
  /** scripts_repos_test_categories.csv to use where the run directory holds no snapshot. */
  categoriesCsv?: string;
  /** The records' study; default the jobs' run_id, else the run directory's name. */
  study?: string;
}

/** Where upstream's scorer looks for the categories, run directory first (host_orchestrator snapshots it there). */
const CATEGORIES_FILES = ['scripts_repos_test_categories.snapshot.csv', 'scripts_repos_test_categories.csv'];

function categoriesOf(runDir: string, fallback: string | undefined): CategoriesIndex {
  const file = [...CATEGORIES_FILES.map((f) => path.join(runDir, f)), ...(fallback ? [fallback] : [])].find((f) => fs.existsSync(f));
  if (file === undefined) {
    throw new Error(`${runDir}: no ${CATEGORIES_FILES.join(' or ')}; give the categories file (upstream's scripts_repos_test_categories.csv)`);
  }
  return indexCategories(parseCategoriesCsv(fs.readFileSync(file, 'utf8'), file));
}


type Draft = Omit<ReadinessRecord, 'trial'>;

function importJob(runDir: string, jobDir: string, categories: CategoriesIndex, totals: C0Totals): Draft {
  const summary = readJobSummary(jobDir);
  const out = path.join(jobDir, 'benchmark', 'build_output');
  const stage = (name: string, file = 'results.json') => readUpstreamJson(path.join(out, name, file));
  const files = {
    pyright: stage('pyright'),
    analysis: stage('pyright', 'analysis.json'),
    importsDetected: stage('pyright', 'imports_detected.json'),
    baselineImports: stage('pyright', 'baseline_imports.json'),
  };
  const cpu = stage('cpu');
  const cuda = stage('cuda');
  const single = stage('single_gpu');
  const multi = stage('multi_gpu');
  const hallucination = stage('hallucination');

  const repoUrl = summary.repo_url ?? '';
  const repo = repoFullName(repoUrl);
  const scriptId = String(summary.script_id ?? '').trim();
  const row = findCategoriesRow(categories, scriptId, repoUrl, repo);
  const cells = { cpu: row?.supports_cpu ?? '', single_gpu: row?.supports_single_gpu ?? '', multi_gpu: row?.supports_multi_gpu ?? '' };
  const wall = agentWallSeconds(summary);
  const envMb = upstreamEnvSizeMb(stage('env_size'));
  const c0 = upstreamC0(files);
  const raw: ResearchEnvBenchRaw = {
    run_id: summary.run_id ?? '',
    job_id: summary.job_id ?? '',
    job_dir: path.relative(runDir, jobDir),
    baseline: pickBaseline(summary),
    repo_full_name: repo,
    repo_url: repoUrl,
    script_id: scriptId,
    supports: cells,
    c0,
    status: { c1: upstreamStatus(cpu), c2: upstreamC2Status(cuda), c3: upstreamStatus(single), c4: upstreamStatus(multi) },
    c5: upstreamC5(hallucination),
    agent_wall_time_sec: wall === null ? null : pythonRound(wall, 3),
    env_prefix_size_mb: envMb,
  };

  const c2 = c2Result(cuda);
  const gpu = gpuOf(jobDir);
  const machineGpus = gpu !== null && gpu.count > 0 ? gpu.count : c2.observed?.cuda_available ? c2.observed.device_count : null;
  const { report, problem } = readAgentReport(jobDir);
  return {
    schema: 'envgap.readiness/v1',
    study: '',
    agent: raw.baseline || 'unknown',
    repo: repo || scriptId || path.basename(jobDir),
    supports: SUPPORTS.filter((s) => upstreamSupported(cells[s])),
    status: 'completed',
    session: sessionOf(summary),
    report,
    report_problem: problem,
    violations: [],
    stages: {
      c0: c0Result(files, upstreamC0Total(repo, c0, totals)),
      c1: stageResult(cpu),
      c2,
      c3: withHardwareSkip(single, stageResult(single), machineGpus, 1),
      c4: withHardwareSkip(multi, stageResult(multi), machineGpus, 2),
      c5: c5Result(hallucination),
    },
    env_size_bytes: envMb === null ? null : Math.round(envMb * 1024 * 1024),
    time_to_ready_s: wall,
    gpu,
    error: null,
    upstream: { researchenvbench: raw },
  };
}

/**
 * Readiness records from a ResearchEnvBench run directory (results/<run_id>/): one per job, a job
 * being a folder under jobs/ that holds job_summary.json. Trials count a repository's jobs per agent
 * in job-folder order. What upstream's scorer reads is kept under `upstream.researchenvbench`.
 */
export function importResearchEnvBenchRun(runDir: string, opts: ResearchEnvBenchImportOptions = {}): ReadinessRecord[] {
  const jobsRoot = path.join(runDir, 'jobs');
  if (!fs.existsSync(jobsRoot) || !fs.statSync(jobsRoot).isDirectory()) throw new Error(`${runDir}: no jobs/ folder (not a ResearchEnvBench run directory)`);
  const categories = categoriesOf(runDir, opts.categoriesCsv);
  const totals = c0TotalsFrom(opts.c0Totals ?? readC0Totals());
  const drafts = findJobDirs(jobsRoot).map((dir) => importJob(runDir, dir, categories, totals));
  const study = opts.study ?? drafts.map((d) => (d.upstream?.researchenvbench as ResearchEnvBenchRaw).run_id).find((id) => id !== '') ?? path.basename(path.resolve(runDir));
  const trials = new Map<string, number>();
  return drafts.map((d) => {
    const key = JSON.stringify([d.agent, d.repo]);
    const trial = (trials.get(key) ?? 0) + 1;
    trials.set(key, trial);
    return { ...d, study, trial };
  });
}
