import * as path from 'node:path';

/**
 * What in an agent's workspace is not the project: tool caches and build outputs known by name, and
 * folders known by what they hold (any folder holding pyvenv.cfg is a virtual environment, whatever
 * it is called; one holding CMakeCache.txt is a CMake build; a `maven-status` folder marks Maven's
 * target/). Pure: the container lists, this decides.
 */
export const NOT_PROJECT_DIRS = [
  '.git', '.hg', '.svn', 'node_modules', '__pycache__', '.venv', '.mypy_cache', '.pytest_cache', '.ruff_cache', '.tox', '.nox', '.cache',
  '.npm', '.gradle', '.m2', '.ipynb_checkpoints', '.envgap', '.eggs',
] as const;
/** A folder holding one of these files is not project source: what it holds is the tool's. */
export const MARKER_FILES: Record<string, string> = { 'pyvenv.cfg': 'a virtual environment', 'CMakeCache.txt': 'a CMake build folder' };
/** A folder holding one of these folders is build output. */
export const MARKER_DIRS: Record<string, string> = { 'maven-status': "Maven's build output" };
/** A project is source code; a bigger file is a download or build output. */
export const MAX_PROJECT_FILE_BYTES = 5 * 1024 * 1024;

/**
 * The shell command (run in the workspace) that lists what envgap must judge: the pruned folders by
 * name, the marker files and folders, and files over the size limit, one path a line (./relative).
 */
export function hygieneListing(): string {
  const names = NOT_PROJECT_DIRS.map((n) => `-name '${n}'`).join(' -o ');
  const markers = Object.keys(MARKER_FILES).map((n) => `-name '${n}'`).join(' -o ');
  const dirs = Object.keys(MARKER_DIRS).map((n) => `-name '${n}'`).join(' -o ');
  return `find . -mindepth 1 \\( -type d \\( ${names} -o -name '*.egg-info' \\) -prune -printf 'prune %p\\n' \\) -o \\( -type d \\( ${dirs} \\) -printf 'dirmark %p\\n' \\) -o \\( -type f \\( ${markers} \\) -printf 'mark %p\\n' \\) -o \\( -type f -size +${MAX_PROJECT_FILE_BYTES}c -printf 'large %p\\n' \\)`;
}

export interface Hygiene {
  /** Paths (./relative) tar leaves out. */
  exclude: string[];
  /** What was left out and why, one line each, for the transcript. */
  notes: string[];
}

/** From the listing's lines, what to leave out of the project. */
export function judgeWorkspace(listing: string): Hygiene {
  const exclude = new Set<string>();
  const notes: string[] = [];
  for (const line of listing.split('\n')) {
    const [tag, ...rest] = line.split(' ');
    const p = rest.join(' ');
    if (!p) continue;
    if (tag === 'prune') exclude.add(p);
    else if (tag === 'large') {
      exclude.add(p);
      notes.push(`${p}: larger than ${MAX_PROJECT_FILE_BYTES / 1024 / 1024} MiB`);
    } else if (tag === 'mark' || tag === 'dirmark') {
      const dir = path.posix.dirname(p);
      const what = tag === 'mark' ? MARKER_FILES[path.posix.basename(p)] : MARKER_DIRS[path.posix.basename(p)];
      if (dir === '.') continue; // the workspace itself is the project
      exclude.add(dir);
      notes.push(`${dir}: ${what}`);
    }
  }
  // A folder inside one already left out needs no line of its own.
  const all = [...exclude].sort();
  const kept = all.filter((p) => !all.some((q) => q !== p && p.startsWith(`${q}/`)));
  return { exclude: kept, notes: notes.filter((n) => kept.includes(n.split(':')[0]!)) };
}
