import * as fs from 'node:fs';
import * as path from 'node:path';
import { MARKER_FILES, MAX_PROJECT_FILE_BYTES, NOT_PROJECT_DIRS } from '../agents/confined/workspaceHygiene';
import type { WorkspaceFile } from './harborSession';
import type { HarborInputs, HarborTrialInput } from './harborStudy';
import { harborTaskRepo, type ImportedTask } from './harborTaskRepo';
import { parseTrialResult, readRewardFiles, type HarborTrial } from './harborTrial';
import { trajectoryReplay, type TrajectoryReplay } from './harborTrajectory';

/** How deep under an input folder tasks and trials are looked for (a dataset's tasks sit up to a few levels down). */
const MAX_DEPTH = 6;
const MAX_JSON_BYTES = 64 * 1024 * 1024;
/** The files one workspace or solution may give a session. */
const MAX_FILES = 10_000;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A regular file's text (no link followed), or null where it is absent, a link, too large or not UTF-8. */
function readText(file: string, max = MAX_PROJECT_FILE_BYTES): string | null {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st?.isFile() || st.size > max) return null;
  try {
    const bytes = fs.readFileSync(file);
    return bytes.includes(0) ? null : utf8.decode(bytes);
  } catch {
    return null;
  }
}

function isDir(p: string): boolean {
  return fs.lstatSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** Text files under a folder (relative POSIX paths), tool caches and virtual environments left out; what is not text is listed with why. */
export function readTextTree(root: string): WorkspaceFile[] {
  const out: WorkspaceFile[] = [];
  const walk = (dir: string, rel: string) => {
    const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    if (rel && entries.some((e) => e.isFile() && e.name in MARKER_FILES)) return;
    for (const e of entries) {
      if (out.length >= MAX_FILES) return;
      const r = rel ? `${rel}/${e.name}` : e.name;
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!(NOT_PROJECT_DIRS as readonly string[]).includes(e.name) && !e.name.endsWith('.egg-info')) walk(abs, r);
      } else if (e.isSymbolicLink()) out.push({ rel: r, content: null, why: 'a link' });
      else if (e.isFile()) {
        const size = fs.lstatSync(abs).size;
        const text = size > MAX_PROJECT_FILE_BYTES ? null : readText(abs);
        out.push(text !== null ? { rel: r, content: text } : { rel: r, content: null, why: size > MAX_PROJECT_FILE_BYTES ? 'over 5 MiB' : 'not UTF-8 text' });
      }
    }
  };
  if (isDir(root)) walk(root, '');
  return out;
}

/** Task folders (holding task.toml) and trial folders (holding a trial's result.json) under the inputs. */
function discover(inputs: readonly string[]): { tasks: string[]; trials: string[]; problems: string[] } {
  const tasks = new Set<string>();
  const trials = new Set<string>();
  const problems: string[] = [];
  const visit = (dir: string, depth: number) => {
    if (fs.existsSync(path.join(dir, 'task.toml'))) {
      tasks.add(dir);
      return;
    }
    const result = readText(path.join(dir, 'result.json'), MAX_JSON_BYTES);
    if (result !== null && /"trial_name"\s*:/.test(result) && !/"n_total_trials"\s*:/.test(result)) {
      trials.add(dir);
      return;
    }
    if (depth >= MAX_DEPTH) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      problems.push(`${dir}: cannot be read (${(err as Error).message})`);
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules') visit(path.join(dir, e.name), depth + 1);
  };
  for (const input of inputs) {
    const abs = path.resolve(input);
    if (!isDir(abs)) throw new Error(`${input}: not a folder (give a Harbor task folder, a folder of tasks, a job folder or a folder of jobs)`);
    visit(abs, 0);
  }
  return { tasks: [...tasks], trials: [...trials], problems };
}

function readTask(dir: string, rel: (abs: string) => string): ImportedTask {
  const env = path.join(dir, 'environment');
  const dockerfile = readText(path.join(env, 'Dockerfile'));
  return harborTaskRepo(
    {
      dir,
      configText: readText(path.join(dir, 'task.toml')) ?? '',
      dockerfile,
      compose: ['docker-compose.yaml', 'docker-compose.yml'].some((f) => fs.existsSync(path.join(env, f))),
      kind(p) {
        const abs = path.resolve(env, p);
        if (abs !== env && !abs.startsWith(env + path.sep)) return null;
        const st = fs.lstatSync(abs, { throwIfNoEntry: false });
        return st?.isDirectory() ? 'dir' : st?.isFile() ? 'file' : null;
      },
      testScript: fs.lstatSync(path.join(dir, 'tests', 'test.sh'), { throwIfNoEntry: false })?.isFile() ?? false,
      testScriptText: readText(path.join(dir, 'tests', 'test.sh')),
    },
    rel,
  );
}

/** A repository's own content of a file, where the task's source is on this machine. */
function originalOf(task: ImportedTask): (rel: string) => string | null | undefined {
  const s = task.source;
  if (!s || s.kind === 'git') return () => undefined;
  const pieces = s.kind === 'folder' ? [{ from: s.path, to: '', kind: 'dir' as const }] : s.pieces;
  return (rel) => {
    for (const p of [...pieces].reverse()) {
      if (p.kind === 'file' && rel === p.to) return readText(p.from);
      if (p.kind === 'dir' && (p.to === '' || rel === p.to || rel.startsWith(`${p.to}/`))) {
        const text = readText(path.join(p.from, p.to === '' ? rel : rel.slice(p.to.length + 1)));
        if (text !== null) return text;
      }
    }
    return null;
  };
}

/** The trial's final workspace: artifacts/ as manifest.json says the task's working directory was collected, else artifacts/<workdir>. */
function workspaceDir(trialDir: string, workdir: string): string | null {
  const artifacts = path.join(trialDir, 'artifacts');
  const manifest = readText(path.join(artifacts, 'manifest.json'), MAX_JSON_BYTES);
  if (manifest !== null) {
    try {
      const entries = JSON.parse(manifest) as { source?: unknown; destination?: unknown; status?: unknown; type?: unknown }[];
      const hit = Array.isArray(entries) ? entries.find((e) => e?.source === workdir && e.status === 'ok' && e.type === 'directory' && typeof e.destination === 'string') : undefined;
      if (hit) {
        const dir = path.resolve(trialDir, hit.destination as string);
        if (dir.startsWith(artifacts + path.sep) && isDir(dir)) return dir;
      }
    } catch {
      // an unreadable manifest: the conventional place
    }
  }
  const dir = path.join(artifacts, workdir.replace(/^\/+/, ''));
  return workdir !== '/' && isDir(dir) ? dir : null;
}

/** Continuation files one trajectory may have (Terminus writes trajectory.cont-N.json after each summary). */
const MAX_SEGMENTS = 100;

/**
 * agent/trajectory.json, with the segments it continues in (`continued_trajectory_ref`, a file beside
 * it) appended in order: one trajectory of all their steps.
 */
function readTrajectory(trialDir: string, workdir: string): { replay: TrajectoryReplay | null; problem: string | null } {
  const agentDir = path.join(trialDir, 'agent');
  const file = path.join(agentDir, 'trajectory.json');
  if (!fs.existsSync(file)) return { replay: null, problem: 'no agent/trajectory.json (an ATIF trajectory)' };
  let name: string | null = 'trajectory.json';
  const docs: { steps?: unknown; continued_trajectory_ref?: unknown }[] = [];
  const seen = new Set<string>();
  try {
    for (let n = 0; name !== null && n < MAX_SEGMENTS; n++) {
      const text = readText(path.join(agentDir, name), MAX_JSON_BYTES);
      if (text === null) return { replay: null, problem: `agent/${name} cannot be read (absent, a link, over 64 MiB, or not UTF-8)` };
      const doc = JSON.parse(text) as { steps?: unknown; continued_trajectory_ref?: unknown };
      docs.push(doc);
      seen.add(name);
      const next = doc.continued_trajectory_ref;
      name = typeof next === 'string' && /^[A-Za-z0-9._-]+\.json$/.test(next) && !seen.has(next) ? next : null;
    }
    const first = docs[0]!;
    const merged = Array.isArray(first.steps) ? { ...first, steps: docs.flatMap((d) => (Array.isArray(d.steps) ? d.steps : [])) } : first;
    return { replay: trajectoryReplay(merged, file, workdir), problem: null };
  } catch (err) {
    return { replay: null, problem: err instanceof SyntaxError ? `agent/${name ?? 'trajectory.json'} is not JSON` : (err as Error).message };
  }
}

function jobOf(trialDir: string): string | null {
  const parent = path.dirname(trialDir);
  return fs.existsSync(path.join(parent, 'config.json')) || fs.existsSync(path.join(parent, 'job.log')) ? path.basename(parent) : null;
}

/**
 * Reads Harbor's folders: the inputs (tasks, datasets of tasks, job folders, folders of jobs) and the
 * `tasks` folders searched for the trials' tasks; `rel` names a path as the study file will.
 */
export function readHarborInputs(inputs: readonly string[], taskDirs: readonly string[], rel: (abs: string) => string, findTask: (tasks: readonly ImportedTask[], t: HarborTrial) => ImportedTask | undefined): HarborInputs {
  const found = discover([...inputs, ...taskDirs]);
  const problems = [...found.problems];
  const tasks: ImportedTask[] = [];
  for (const dir of found.tasks) {
    try {
      tasks.push(readTask(dir, rel));
    } catch (err) {
      problems.push(`task ${dir}: ${(err as Error).message}`);
    }
  }
  const trials: HarborTrialInput[] = [];
  for (const dir of found.trials) {
    try {
      const verifier = path.join(dir, 'verifier');
      const rewards = readRewardFiles(readText(path.join(verifier, 'reward.json')), readText(path.join(verifier, 'reward.txt')), verifier);
      const trial = parseTrialResult(readText(path.join(dir, 'result.json'), MAX_JSON_BYTES) ?? '', path.join(dir, 'result.json'), rewards);
      const task = findTask(tasks, trial);
      const workdir = task?.workdir ?? '/app';
      const { replay, problem } = readTrajectory(dir, workdir);
      const ws = task ? workspaceDir(dir, task.workdir) : null;
      trials.push({ dir, job: jobOf(dir), trial, replay, trajectoryProblem: problem, workspace: ws ? readTextTree(ws) : null });
    } catch (err) {
      problems.push(`trial ${dir}: ${(err as Error).message}`);
    }
  }
  const solutions = new Map<string, WorkspaceFile[]>();
  const originals = new Map<string, (rel: string) => string | null | undefined>();
  for (const t of tasks) {
    solutions.set(t.folder, readTextTree(path.join(t.folder, 'solution')));
    originals.set(t.folder, originalOf(t));
  }
  return { tasks, trials, solutions, originals, problems };
}
