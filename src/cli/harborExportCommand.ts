import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { harborTaskFiles, type ExportFile } from '../exporters/harborTaskFiles';
import { parseReadinessStudyFile } from './readinessStudyFile';
import { readStudyFile } from './studyFile';
import { say } from './say';

/** A folder copied as a repository's files are (a .git folder left out, links kept as links). */
function copyDir(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, verbatimSymlinks: true, filter: (src) => path.basename(src) !== '.git' });
}

/** An archive unpacked as the readiness protocol unpacks one: a single top-level folder is the root. */
function unpack(archive: string, to: string): void {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-export-'));
  try {
    const r = spawnSync('tar', ['-xf', archive, '-C', tmp], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${archive}: tar could not unpack it: ${r.stderr.trim()}`);
    const top = fs.readdirSync(tmp);
    const root = top.length === 1 && fs.statSync(path.join(tmp, top[0]!)).isDirectory() ? path.join(tmp, top[0]!) : tmp;
    copyDir(root, to);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function write(root: string, f: ExportFile): void {
  const to = path.join(root, f.path);
  fs.mkdirSync(path.dirname(to), { recursive: true });
  if ('text' in f) fs.writeFileSync(to, f.text, { mode: f.mode ?? 0o644 });
  else if ('copyDir' in f) copyDir(f.copyDir, to);
  else unpack(f.unpack, to);
}

/**
 * `envgap export harbor STUDY.yaml --out DIR [--repo ID]...`: each repository of a readiness study as
 * a Harbor task folder under DIR (a dataset Harbor runs with `harbor run -p DIR`).
 */
export function exportHarborCommand(studyFile: string, opts: { out: string; repo?: string[] }): { tasks: string[] } {
  const study = parseReadinessStudyFile(readStudyFile(studyFile), studyFile);
  const wanted = opts.repo && opts.repo.length > 0 ? opts.repo : null;
  const unknown = (wanted ?? []).filter((id) => !study.repos.some((r) => r.id === id));
  if (unknown.length > 0) throw new Error(`export harbor: ${studyFile} has no repository ${unknown.join(', ')} (it has ${study.repos.map((r) => r.id).join(', ')})`);
  const repos = study.repos.filter((r) => !wanted || wanted.includes(r.id));
  const tasks = repos.map((repo) => harborTaskFiles(study, repo));
  for (const t of tasks) {
    const dir = path.join(opts.out, t.folder);
    if (fs.existsSync(dir)) throw new Error(`export harbor: ${dir} exists: remove it, or export to another folder`);
  }
  for (const t of tasks) {
    const dir = path.join(opts.out, t.folder);
    fs.mkdirSync(dir, { recursive: true });
    for (const f of t.files) write(dir, f);
  }
  say(`export harbor: ${tasks.length} Harbor task${tasks.length === 1 ? '' : 's'} written to ${opts.out} (${tasks.map((t) => t.folder).join(', ')}); run them with harbor run -p ${opts.out}`);
  return { tasks: tasks.map((t) => path.join(opts.out, t.folder)) };
}
