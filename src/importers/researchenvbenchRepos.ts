import { stringify } from 'yaml';
import { SUPPORTS, type Support } from '../domain/readiness';
import type { RepoEntries } from '../domain/readinessStudy';
import { upstreamSupported } from '../domain/readinessUpstream';
import { parseCategoriesCsv } from './researchenvbenchCategories';
import { repoCommands, type BenchmarkScriptsFolder, type UnconvertedStage } from './researchenvbenchScripts';
import { UPSTREAM_STAGE_TIMEOUT_S } from './researchenvbenchStageCommand';

/** What the user must write where upstream's CSV gives no repository URL or commit. */
export const FILL_IN = 'FILL-IN';

export interface ReadinessStudyRepo {
  id: string;
  source: { git: string; commit: string };
  supports: Support[];
  /** The repository's benchmark_scripts folder, relative to the study file (from a checkout only). */
  scripts?: string;
  /** upstream's prepare_assets.sh, run as run_all.sh runs it (from a checkout only). */
  prepare?: string;
  /** The commands of C1, C3 and C4: upstream keeps them in per-repository scripts, not in the CSV. */
  entry: RepoEntries;
  stage_timeout_s?: number;
}

export interface ReadinessStudyFile {
  name: string;
  protocol: 'readiness';
  /** A placeholder the user replaces with the agents to study (the CSV names none). */
  agents: { kind: 'replay'; name: string; path: string }[];
  gpu: 'auto';
  repos: ReadinessStudyRepo[];
}

const COLUMNS: Record<Support, string> = { cpu: 'supports_cpu', single_gpu: 'supports_single_gpu', multi_gpu: 'supports_multi_gpu' };

/**
 * A readiness study from upstream's scripts_repos_test_categories.csv: one repository per row, its
 * id upstream's repo_slug (owner@name, as its scripts/<slug>/ folders are named; else the `repo`
 * column with "/" as "@"), supports as upstream reads them (a blank cell counts as supported).
 */
export function researchEnvBenchStudy(csvText: string, source: string, name = 'researchenvbench'): ReadinessStudyFile {
  const rows = parseCategoriesCsv(csvText, source);
  const repos = rows.map((row, index): ReadinessStudyRepo => {
    const id = row.repo_slug || row.repo.replace('/', '@');
    if (!id) throw new Error(`${source} record ${index + 2}: field repo: empty (and no repo_slug)`);
    return {
      id,
      source: { git: row.git_link || FILL_IN, commit: row.commit || FILL_IN },
      supports: SUPPORTS.filter((s) => upstreamSupported(row[COLUMNS[s]] ?? '')),
      entry: {},
    };
  });
  const seen = new Set<string>();
  for (const r of repos) {
    if (seen.has(r.id)) throw new Error(`${source}: repository ${r.id} appears twice`);
    seen.add(r.id);
  }
  return { name, protocol: 'readiness', agents: [{ kind: 'replay', name: 'recorded', path: 'sessions' }], gpu: 'auto', repos };
}

/** Upstream's checkout as the importer reads it (researchenvbenchCheckout.ts). */
export interface ResearchEnvBenchCheckout {
  csvText: string;
  /** The CSV's name in errors. */
  csvSource: string;
  /** Each repository's benchmark_scripts folder by slug; absent where the checkout has none. */
  folders: ReadonlyMap<string, BenchmarkScriptsFolder>;
  /** The checkout's scripts/ folder as the study file names it (relative to the study file's folder). */
  scriptsPath: string;
}

/** What the importer could not give a command, by repository. */
export interface Unconverted {
  id: string;
  stages: UnconvertedStage[];
}

export interface CheckoutStudy {
  study: ReadinessStudyFile;
  unconverted: Unconverted[];
}

/**
 * A readiness study from upstream's checkout: the CSV's repositories, each supported stage's command
 * from its scripts/<slug>/benchmark_scripts/ (repoCommands), and the folder and the prepare stage
 * those commands need.
 */
export function researchEnvBenchCheckoutStudy(checkout: ResearchEnvBenchCheckout, name?: string): CheckoutStudy {
  const base = researchEnvBenchStudy(checkout.csvText, checkout.csvSource, name);
  const unconverted: Unconverted[] = [];
  const repos = base.repos.map((repo): ReadinessStudyRepo => {
    const commands = repoCommands(checkout.folders.get(repo.id) ?? null, repo.supports, repo.id);
    if (commands.unconverted.length > 0) unconverted.push({ id: repo.id, stages: commands.unconverted });
    if (Object.keys(commands.entry).length === 0) return repo;
    const { id, source, supports } = repo;
    const scripts = `${checkout.scriptsPath.replace(/\/+$/, '')}/${repo.id}/benchmark_scripts`;
    return { id, source, supports, scripts, ...(commands.prepare !== undefined ? { prepare: commands.prepare } : {}), entry: commands.entry, stage_timeout_s: UPSTREAM_STAGE_TIMEOUT_S };
  });
  return { study: { ...base, repos }, unconverted };
}

const STAGES_OF: Record<Support, string> = { cpu: 'C1', single_gpu: 'C3', multi_gpu: 'C4' };

/** The header of a study made from a checkout: how its commands run, the figures, what has none and why. */
function checkoutNotes(study: ReadinessStudyFile, unconverted: readonly Unconverted[]): string[] {
  const counts = SUPPORTS.map((s) => `${STAGES_OF[s]} ${study.repos.filter((r) => r.entry[s] !== undefined).length}`).join(', ');
  const unsupported = SUPPORTS.map((s) => [STAGES_OF[s], study.repos.filter((r) => !r.supports.includes(s)).map((r) => r.id)] as const).filter(([, ids]) => ids.length > 0);
  const none = study.repos.filter((r) => r.supports.length === 0).map((r) => r.id);
  return [
    '# From a ResearchEnvBench checkout (envgap import researchenvbench-repos): scripts_repos_test_categories.csv',
    '# and each repository\'s scripts/<slug>/benchmark_scripts/ (its `scripts` folder, mounted read-only in the',
    '# probe containers only). Each entry, and `prepare` (prepare_assets.sh: datasets, model weights; it runs',
    "# before them), runs upstream's run_all.sh for its one stage and passes where the stage's",
    '# build_output/<stage>/results.json says success, as upstream scores it.',
    `# Commands: ${counts} of ${study.repos.length} repositories; a stage upstream's CSV marks unsupported has none (not_applicable).`,
    ...(unsupported.length > 0 ? ['# Unsupported upstream:', ...unsupported.map(([stage, ids]) => `#   ${stage}: ${ids.join(', ')}`)] : []),
    ...(unconverted.length === 0
      ? ['# Not converted: none (every supported stage has its command).']
      : ['# Not converted (a supported stage without a command):', ...unconverted.map((u) => `#   ${u.id}: ${u.stages.map((s) => `${s.stage}: ${s.reason}`).join('; ')}`)]),
    ...(none.length > 0 ? [`# No stage to run (upstream supports none of cpu, single_gpu, multi_gpu; only C0, C2 and C5 apply): ${none.join(', ')}.`] : []),
    '# Replace the placeholder agent with the agents to study.',
  ];
}

const CSV_NOTES = [
  '# From ResearchEnvBench scripts_repos_test_categories.csv (envgap import researchenvbench-repos).',
  '# The CSV has no entry commands: upstream keeps them in scripts/<slug>/benchmark_scripts/.',
  '# Fill entry.cpu / entry.single_gpu / entry.multi_gpu for each repository (a stage without one is skipped as no_entry),',
  '# and replace the placeholder agent with the agents to study.',
];

/** The study as YAML, with a note on what upstream's CSV leaves to the user (or, from a checkout, what was converted). */
export function researchEnvBenchStudyYaml(study: ReadinessStudyFile, unconverted?: readonly Unconverted[]): string {
  const unfilled = study.repos.filter((r) => r.source.git === FILL_IN || r.source.commit === FILL_IN).map((r) => r.id);
  const notes = [
    ...(unconverted === undefined ? CSV_NOTES : checkoutNotes(study, unconverted)),
    ...(unfilled.length > 0 ? [`# ${FILL_IN}: no git link or commit in the CSV for ${unfilled.join(', ')}.`] : []),
  ];
  return `${notes.join('\n')}\n${stringify(study, { lineWidth: 0 })}`;
}
