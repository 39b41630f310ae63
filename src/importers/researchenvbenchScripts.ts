import type { Support } from '../domain/readiness';
import type { RepoEntries } from '../domain/readinessStudy';
import { UPSTREAM_STAGE_SCRIPTS, upstreamStageCommand, type UpstreamStage } from './researchenvbenchStageCommand';

/** What the importer needs of one repository's scripts/<slug>/benchmark_scripts/ in upstream's checkout. */
export interface BenchmarkScriptsFolder {
  /** The names of the folder's files. */
  files: string[];
  /** run_all.sh's text; null where there is none. */
  runAll: string | null;
}

/** A stage upstream supports that has no command, and why. */
export interface UnconvertedStage {
  stage: UpstreamStage;
  reason: string;
}

export interface RepoCommands {
  entry: RepoEntries;
  prepare?: string;
  unconverted: UnconvertedStage[];
}

/** run_all.sh without its comment lines. */
const codeLines = (text: string): string => text.split('\n').filter((l) => !l.trimStart().startsWith('#')).join('\n');

/** Why a stage cannot run through run_all.sh, or null where it can. */
function stageProblem(folder: BenchmarkScriptsFolder, stage: UpstreamStage): string | null {
  const script = UPSTREAM_STAGE_SCRIPTS[stage];
  if (!folder.files.includes(script)) return `no ${script}`;
  if (!codeLines(folder.runAll ?? '').includes(script)) return `run_all.sh does not run ${script}`;
  return null;
}

/**
 * The commands of the stages a repository supports, each its upstream script run as run_all.sh runs
 * it (upstreamStageCommand), and the prepare stage (prepare_assets.sh) that they need where any stage
 * has one. `folder` is null where the checkout has no scripts/<slug>/benchmark_scripts/.
 */
export function repoCommands(folder: BenchmarkScriptsFolder | null, supports: readonly Support[], slug: string): RepoCommands {
  const where = `scripts/${slug}/benchmark_scripts/`;
  if (folder === null) return { entry: {}, unconverted: supports.map((stage) => ({ stage, reason: `no ${where} in the checkout` })) };
  if (folder.runAll === null) return { entry: {}, unconverted: supports.map((stage) => ({ stage, reason: `no run_all.sh in ${where} (upstream runs every stage through it)` })) };
  const entry: RepoEntries = {};
  const unconverted: UnconvertedStage[] = [];
  for (const stage of supports) {
    const problem = stageProblem(folder, stage);
    if (problem === null) entry[stage] = upstreamStageCommand(stage);
    else unconverted.push({ stage, reason: problem });
  }
  if (Object.keys(entry).length === 0) return { entry, unconverted };
  const prepareProblem = stageProblem(folder, 'prepare');
  if (prepareProblem !== null) return { entry, unconverted: [...unconverted, { stage: 'prepare', reason: prepareProblem }] };
  return { entry, prepare: upstreamStageCommand('prepare'), unconverted };
}
