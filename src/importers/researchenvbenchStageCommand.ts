import type { Support } from '../domain/readiness';
import { REPO_SCRIPTS_DIR } from '../domain/readinessStudy';
import { REPORT_PATH } from '../readiness/paths';

/** The stages of upstream's benchmark_scripts that envgap runs through a command of its own. */
export type UpstreamStage = 'prepare' | Support;

/** Each stage's script in scripts/<slug>/benchmark_scripts/. */
export const UPSTREAM_STAGE_SCRIPTS: Record<UpstreamStage, string> = {
  prepare: 'prepare_assets.sh',
  cpu: 'run_cpu_entrypoint.sh',
  single_gpu: 'run_single_gpu_entrypoint.sh',
  multi_gpu: 'run_multi_gpu_entrypoint.sh',
};

/** Every script that upstream's run_all.sh runs as a stage, in its order. */
export const RUN_ALL_STAGE_SCRIPTS = [
  'run_pyright_missing_imports.sh',
  'prepare_assets.sh',
  'run_cpu_entrypoint.sh',
  'check_cuda_available.py',
  'run_single_gpu_entrypoint.sh',
  'run_multi_gpu_entrypoint.sh',
  'measure_env_size.py',
  'validate_agent_report.py',
  'summarize_results.py',
] as const;

/** What run_all.sh still runs for a stage: its script, and before a GPU stage the cuda stage (some read its results). */
function liveScripts(stage: UpstreamStage): string[] {
  return stage === 'single_gpu' || stage === 'multi_gpu' ? [UPSTREAM_STAGE_SCRIPTS[stage], 'check_cuda_available.py'] : [UPSTREAM_STAGE_SCRIPTS[stage]];
}

/** Upstream's m5 counts these statuses (normalize_status) as a success. */
const SUCCESS = ['success', 'ok', 'passed', 'pass'];
/** A prepare stage with nothing to fetch says skipped; run_all.sh does not count that as a failure, and m5 does not score it. */
const PREPARED = [...SUCCESS, 'skipped', 'skip'];

const verdict = (passing: readonly string[]) =>
  `python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); s=str(r.get("status")).strip().lower(); print("upstream verdict:", sys.argv[1], s, r.get("failure_category")); sys.exit(s not in (${passing.map((p) => `"${p}"`).join(',')}))'`;

/**
 * One stage as upstream's m2 runs it, for a probe container (bash -c in /repo) with the scripts
 * folder mounted at REPO_SCRIPTS_DIR: a copy at /repo/benchmark_scripts (the scripts find the
 * repository as their folder's parent), run_all.sh with every other stage's script emptied (so the
 * stage gets run_all.sh's own arguments and variables, which differ per repository), and the stage's
 * build_output/<stage>/results.json as the verdict, as upstream's scorer reads it. The stage's log
 * is printed, since runner.py writes the command's output there and not to the terminal.
 */
export function upstreamStageCommand(stage: UpstreamStage): string {
  const emptied = RUN_ALL_STAGE_SCRIPTS.filter((s) => !liveScripts(stage).includes(s));
  const results = `build_output/${stage}/results.json`;
  return [
    `rm -rf benchmark_scripts build_output/${stage}`,
    ` && cp -r ${REPO_SCRIPTS_DIR} benchmark_scripts`,
    ` && (cd benchmark_scripts && truncate -s 0 ${emptied.join(' ')})`,
    ` && SCIMLOPSBENCH_REPORT=${REPORT_PATH} bash benchmark_scripts/run_all.sh`,
    `; echo "envgap: run_all.sh ran with the other stages' scripts emptied; build_output/${stage}/log.txt:"`,
    `; cat build_output/${stage}/log.txt`,
    `; test -f ${results} || { echo "envgap: upstream's ${stage} stage wrote no ${results}"; exit 1; }`,
    `; ${verdict(stage === 'prepare' ? PREPARED : SUCCESS)} ${results}`,
  ].join('');
}

/**
 * The probes' time limit for a study of upstream's scripts: above runner.py's own limits (600 s for
 * cpu and single_gpu, 1200 s for multi_gpu and prepare), so that upstream's limit ends a stage first
 * and its results.json says timeout.
 */
export const UPSTREAM_STAGE_TIMEOUT_S = 1500;
