import { stringify } from 'yaml';
import { SUPPORTS, type Support } from '../domain/readiness';
import { upstreamSupported } from '../domain/readinessUpstream';
import { parseCategoriesCsv } from './researchenvbenchCategories';

/** What the user must write where upstream's CSV gives no repository URL or commit. */
export const FILL_IN = 'FILL-IN';

export interface ReadinessStudyRepo {
  id: string;
  source: { git: string; commit: string };
  supports: Support[];
  /** The commands of C1, C3 and C4: upstream keeps them in per-repository scripts, not in the CSV. */
  entry: Record<string, string>;
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

/** The study as YAML, with a note on what upstream's CSV leaves to the user. */
export function researchEnvBenchStudyYaml(study: ReadinessStudyFile): string {
  const unfilled = study.repos.filter((r) => r.source.git === FILL_IN || r.source.commit === FILL_IN).map((r) => r.id);
  const notes = [
    '# From ResearchEnvBench scripts_repos_test_categories.csv (envgap import researchenvbench-repos).',
    '# The CSV has no entry commands: upstream keeps them in scripts/<slug>/benchmark_scripts/.',
    '# Fill entry.cpu / entry.single_gpu / entry.multi_gpu for each repository (a stage without one is skipped as no_entry),',
    '# and replace the placeholder agent with the agents to study.',
    ...(unfilled.length > 0 ? [`# ${FILL_IN}: no git link or commit in the CSV for ${unfilled.join(', ')}.`] : []),
  ];
  return `${notes.join('\n')}\n${stringify(study, { lineWidth: 0 })}`;
}
