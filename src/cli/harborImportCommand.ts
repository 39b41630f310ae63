import * as fs from 'node:fs';
import * as path from 'node:path';
import { readHarborInputs } from '../importers/harborFiles';
import { harborStudy, harborTrialTask, type HarborStudyImport } from '../importers/harborStudy';
import { harborStudyYaml } from '../importers/harborStudyYaml';
import { harborVerifyScript, TESTS_FOLDER, VERIFY_SCRIPT } from '../importers/harborVerifierCommand';
import { say } from './say';

export interface HarborImportOptions {
  out: string;
  /** Folders searched for the trials' tasks, besides the inputs. */
  tasks?: string[];
  name?: string;
  /** Replay each task's solution as an agent `oracle` (default: where no trial is imported). */
  oracle?: boolean;
}

/** Marks a recordings folder as the importer's, so that a later import may replace what it wrote. */
const MARKER = '.envgap-harbor-import';

/** Where the sessions, the scripts folders and assembled repositories go: `<study>.recordings/` beside the study file. */
export function recordingsDir(out: string): string {
  return path.join(path.dirname(path.resolve(out)), `${path.basename(out).replace(/\.ya?ml$/, '')}.recordings`);
}

/** Makes the recordings folder, or empties one an earlier import of the same kind wrote (refusing one it did not). */
export function prepareRecordings(dir: string, kind: 'harbor' | 'inspect' = 'harbor'): void {
  const marker = kind === 'harbor' ? MARKER : `.envgap-${kind}-import`;
  if (fs.existsSync(dir)) {
    if (!fs.existsSync(path.join(dir, marker))) throw new Error(`${dir} exists and was not written by envgap import ${kind}: move it, or write the study elsewhere`);
    for (const sub of ['sessions', 'repos', 'scripts', 'projects']) fs.rmSync(path.join(dir, sub), { recursive: true, force: true });
  }
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, marker), `written by envgap import ${kind}; replaced by the next import to the same study file\n`);
}

function writeRecordings(dir: string, imported: HarborStudyImport): void {
  for (const s of imported.sessions) {
    const at = path.join(dir, 'sessions', s.agent, s.repo, String(s.trial));
    fs.mkdirSync(at, { recursive: true });
    fs.writeFileSync(path.join(at, 'session.jsonl'), s.lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    fs.writeFileSync(path.join(at, 'harbor-trial.json'), JSON.stringify(s.harbor, null, 2) + '\n');
  }
  for (const s of imported.scripts) {
    const at = path.join(dir, 'scripts', s.id);
    fs.cpSync(s.tests, path.join(at, TESTS_FOLDER), { recursive: true, verbatimSymlinks: true });
    fs.writeFileSync(path.join(at, VERIFY_SCRIPT), harborVerifyScript(), { mode: 0o755 });
  }
  for (const repo of imported.assemble) {
    const root = path.join(dir, 'repos', repo.id);
    fs.mkdirSync(root, { recursive: true });
    for (const p of repo.pieces) {
      const to = path.join(root, p.to);
      if (p.kind === 'dir') fs.cpSync(p.from, to, { recursive: true, verbatimSymlinks: true });
      else {
        fs.mkdirSync(path.dirname(to), { recursive: true });
        fs.copyFileSync(p.from, to);
      }
    }
  }
}

/**
 * `envgap import harbor DIR... --out STUDY.yaml [--tasks DIR] [--name NAME] [--oracle]`: Harbor task
 * folders and job/trial folders as a readiness study, its recordings beside it; says what could not
 * be converted and why (also at the top of the file).
 */
export function importHarborCommand(dirs: readonly string[], opts: HarborImportOptions): HarborStudyImport {
  const out = path.resolve(opts.out);
  const outDir = path.dirname(out);
  const recordings = recordingsDir(out);
  const rel = (abs: string) => path.relative(outDir, abs) || '.';
  const inputs = readHarborInputs(dirs, opts.tasks ?? [], rel, harborTrialTask);
  if (inputs.tasks.length === 0) throw new Error(`import harbor: no Harbor task (a folder holding task.toml) under ${[...dirs, ...(opts.tasks ?? [])].join(', ')}${inputs.trials.length > 0 ? `; the ${inputs.trials.length} trials need their tasks: give them with --tasks` : ''}`);
  const imported = harborStudy(inputs, { name: opts.name, oracle: opts.oracle, recordings: rel(recordings), rel });
  if (imported.study.repos.length === 0) throw new Error(`import harbor: no task could be converted:\n  ${imported.unconverted.join('\n  ')}`);
  if (imported.sessions.length === 0) throw new Error(`import harbor: nothing to replay (no trial, and no task with solution/solve.sh):\n  ${imported.unconverted.join('\n  ')}`);
  prepareRecordings(recordings);
  writeRecordings(recordings, imported);
  fs.writeFileSync(out, harborStudyYaml(imported));
  say(`import harbor: ${imported.notes.join('; ')}; written to ${opts.out} (recordings in ${rel(recordings)})`);
  if (imported.unconverted.length > 0) say(`import harbor: not converted (${imported.unconverted.length}, also at the top of the file):\n  ${imported.unconverted.join('\n  ')}`);
  return imported;
}
