import { runCoverage, type RunCoverage } from '../../domain/coverage';
import { joinPosixPath } from '../posixPath';

/** The separate build, configured with --coverage, whose run gcov reads (src/activities/runners/cppCoverage.ts). */
export const CPP_COVERAGE_BUILD_DIR = '/work/build-envgap-coverage';

/** The project's folder in the container: only sources under it are the project's own. */
const PROJECT = '/work';

/** Build folders, CMake's compiler checks and FetchContent's sources: compiled under /work, but not written by the project. */
const NOT_OWN = /^\/work\/(?:build(?:-envgap-coverage)?\/|.*\/_deps\/|.*\/CMakeFiles\/)/;

interface GcovLine {
  line_number: number;
  count: number;
}

interface GcovDocument {
  current_working_directory?: string;
  files?: { file?: string; lines?: GcovLine[] }[];
}

/** The .gcno files gcov is asked about: the project's objects, not CMake's compiler checks nor FetchContent's. */
export function ownCoverageNotes(paths: readonly string[]): string[] {
  return paths.filter((p) => p.endsWith('.gcno') && !/(?:^|\/)(?:_deps|CMakeFiles\/\d[^/]*)\//.test(p)).sort();
}

/**
 * The share of the project's own C++ the run executed, from `gcov --json-format --stdout` (one JSON
 * document per object file, one per line). Lines with code, as gcov counts them, of the source files
 * under /work outside the build folders and FetchContent's: a line compiled into several objects (a
 * header of the project's) counts once, executed where any object ran it; a file without a line of
 * code is not counted. Null where there is no such line (nothing to measure).
 */
export function parseGcovJson(text: string): RunCoverage | null {
  const files = new Map<string, Map<number, boolean>>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line.startsWith('{')) continue;
    const doc = JSON.parse(line) as GcovDocument;
    const cwd = doc.current_working_directory ?? PROJECT;
    for (const f of doc.files ?? []) {
      if (!f.file) continue;
      const path = joinPosixPath(cwd, f.file);
      if (!path.startsWith(`${PROJECT}/`) || NOT_OWN.test(path)) continue;
      const lines = files.get(path) ?? new Map<number, boolean>();
      for (const l of f.lines ?? []) lines.set(l.line_number, (lines.get(l.line_number) ?? false) || l.count > 0);
      files.set(path, lines);
    }
  }
  const counted = [...files.values()].filter((lines) => lines.size > 0);
  const executedIn = (lines: Map<number, boolean>) => [...lines.values()].filter(Boolean).length;
  return runCoverage('gcov', 'line', {
    total: counted.reduce((n, lines) => n + lines.size, 0),
    executed: counted.reduce((n, lines) => n + executedIn(lines), 0),
    files: counted.length,
    filesExecuted: counted.filter((lines) => executedIn(lines) > 0).length,
  });
}
