import * as path from 'node:path';
import { LANGUAGES, type Language } from '../domain/instance';
import { MAX_PROJECT_BYTES } from '../domain/files';
import { MANIFEST_FILE } from '../ecosystems/manifestFiles';

/** A task from another harness, as the gap study file's `imported_tasks` holds it (src/cli/studyFile.ts). */
export interface ImportedGapTask {
  id: string;
  title: string;
  domain: string;
  prompt: string;
}

/** A final workspace another harness recorded: one agent's project for one task. */
export interface ImportedProject {
  agent: string;
  task: ImportedGapTask;
  /** Files relative to the project's root (POSIX), text. */
  files: { rel: string; content: string }[];
  /** What the harness recorded of the run, as the replay's `.replay.json` takes it. */
  meta: { tokens_in?: number | null; tokens_out?: number | null; cost_usd?: number | null };
  /** Where it came from, for the notes ("trial job/x", "sample 3 epoch 1"). */
  from: string;
  /** Orders the trials of one agent and task (a start time, a sample's epoch). */
  order: string;
  /** What the harness recorded of the run (its rewards or scores), kept beside the recording as `file`. */
  record?: { file: string; data: Record<string, unknown> };
}

/** A replay iteration to write: <recordings>/<agent>/<language>/<task>/<trial>/0/. */
export interface GapRecording {
  agent: string;
  language: Language;
  task: string;
  trial: number;
  files: { rel: string; content: string }[];
  meta: ImportedProject['meta'];
  record?: ImportedProject['record'];
}

/** The environment gap study file the import writes (src/cli/studyFile.ts). */
export interface GapStudyFile {
  name: string;
  agents: { kind: 'replay'; name: string; path: string }[];
  languages: Language[];
  tasks: Partial<Record<Language, string[]>>;
  imported_tasks: ImportedGapTask[];
  trials: number;
  budget: 0;
  concurrency: number;
}

export interface GapReplayImport {
  study: GapStudyFile;
  recordings: GapRecording[];
  notes: string[];
  unconverted: string[];
}

/** The sources of each language, for a project without a manifest. */
const SOURCES: Record<Language, RegExp> = { python: /\.py$/, javascript: /\.(js|mjs|cjs)$/, java: /\.java$/, cpp: /\.(cpp|cc|cxx|c)$/ };

/**
 * A project's language: the one whose manifest (requirements.txt, package.json, pom.xml,
 * CMakeLists.txt) is at its top, the one with most sources where several are or none is; null where
 * it holds neither a manifest nor sources of the four.
 */
export function projectLanguage(rels: readonly string[]): { language: Language; why: string } | { problem: string } {
  const top = new Set(rels.filter((r) => !r.includes('/')));
  const sources = (l: Language) => rels.filter((r) => SOURCES[l].test(r)).length;
  const byManifest = LANGUAGES.filter((l) => top.has(MANIFEST_FILE[l]));
  const candidates = byManifest.length > 0 ? byManifest : LANGUAGES.filter((l) => sources(l) > 0);
  if (candidates.length === 0) return { problem: `no project: neither a manifest (${LANGUAGES.map((l) => MANIFEST_FILE[l]).join(', ')}) at its top nor sources of Python, JavaScript, Java or C++` };
  const best = [...candidates].sort((a, b) => sources(b) - sources(a))[0]!;
  const why = byManifest.length > 0 ? `${MANIFEST_FILE[best]}${byManifest.length > 1 ? ` (of ${byManifest.map((l) => MANIFEST_FILE[l]).join(', ')}: the most sources)` : ''}` : `no manifest; ${sources(best)} ${best} sources`;
  return { language: best, why };
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Final workspaces as an environment gap study of replay agents (docs/harbor.md, docs/inspect.md):
 * each project is iteration 0 of its agent's trial of an imported task, the budget 0, so the study
 * measures D1/D2/D3 of the workspace as it was left and asks for no repair. Trials are numbered per
 * agent and task in `order`.
 */
export function gapReplayStudy(projects: readonly ImportedProject[], opts: { name: string; recordings: string; concurrency?: number }): GapReplayImport {
  if (!NAME.test(opts.name) || opts.name.length > 64) throw new Error(`the study name "${opts.name}" must be letters, digits, ".", "_" or "-" (at most 64): give --name`);
  const unconverted: string[] = [];
  const recordings: GapRecording[] = [];
  const tasks = new Map<string, ImportedGapTask>();
  const languagesOf = new Map<string, Set<Language>>();
  const counts = new Map<string, number>();
  for (const p of [...projects].sort((a, b) => a.order.localeCompare(b.order) || a.from.localeCompare(b.from))) {
    const found = projectLanguage(p.files.map((f) => f.rel));
    if ('problem' in found) {
      unconverted.push(`${p.from}: ${found.problem}`);
      continue;
    }
    const bytes = p.files.reduce((n, f) => n + Buffer.byteLength(f.content), 0);
    if (bytes > MAX_PROJECT_BYTES) {
      unconverted.push(`${p.from}: its ${bytes} bytes of files are over a project's ${MAX_PROJECT_BYTES} bytes`);
      continue;
    }
    const key = `${p.agent}\n${p.task.id}`;
    const trial = (counts.get(key) ?? 0) + 1;
    counts.set(key, trial);
    tasks.set(p.task.id, tasks.get(p.task.id) ?? p.task);
    languagesOf.set(p.task.id, (languagesOf.get(p.task.id) ?? new Set()).add(found.language));
    recordings.push({ agent: p.agent, language: found.language, task: p.task.id, trial, files: p.files, meta: p.meta, ...(p.record ? { record: p.record } : {}) });
  }
  const languages = LANGUAGES.filter((l) => recordings.some((r) => r.language === l));
  const agents = [...new Set(recordings.map((r) => r.agent))].sort();
  const trials = Math.max(1, ...recordings.map((r) => r.trial));
  const perLanguage = Object.fromEntries(languages.map((l) => [l, [...tasks.keys()].filter((t) => languagesOf.get(t)!.has(l)).sort()])) as Partial<Record<Language, string[]>>;
  const missing: string[] = [];
  for (const agent of agents)
    for (const l of languages)
      for (const task of perLanguage[l]!)
        for (let n = 1; n <= trials; n++) if (!recordings.some((r) => r.agent === agent && r.language === l && r.task === task && r.trial === n)) missing.push(`${agent} × ${l}/${task} trial ${n}`);
  if (missing.length > 0) unconverted.push(`no recorded project (these instances end as errors: "no recording of ..."): ${missing.join(', ')}`);
  const rec = opts.recordings.replace(/\/+$/, '');
  const study: GapStudyFile = {
    name: opts.name,
    agents: agents.map((a) => ({ kind: 'replay', name: a, path: path.posix.join(rec, 'projects', a) })),
    languages,
    tasks: perLanguage,
    imported_tasks: [...tasks.values()].sort((a, b) => a.id.localeCompare(b.id)),
    trials,
    budget: 0,
    concurrency: opts.concurrency ?? 2,
  };
  const notes = [`${recordings.length} of ${projects.length} final workspaces as projects of ${agents.length} replay agents (${agents.join(', ') || 'none'}), ${tasks.size} imported tasks in ${languages.join(', ') || 'no language'}; budget 0 (each measured as it was left, no repair asked)`];
  return { study, recordings, notes, unconverted };
}
