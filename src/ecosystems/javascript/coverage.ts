import { runCoverage, type RunCoverage } from '../../domain/coverage';
import { isBinaryContent, type ProjectFiles } from '../../domain/files';

/** One script of a V8 coverage report (what NODE_V8_COVERAGE writes, per process), block coverage. */
export interface V8Script {
  url: string;
  functions: { ranges: { startOffset: number; endOffset: number; count: number }[] }[];
}

const CODE_FILE = /\.(?:js|mjs|cjs)$/;

/** The project's own JavaScript files: `.js`, `.mjs`, `.cjs` outside node_modules, text only. */
export function projectScriptPaths(files: ProjectFiles): string[] {
  return Object.keys(files)
    .filter((p) => CODE_FILE.test(p) && !p.split('/').includes('node_modules') && !isBinaryContent(files[p]))
    .sort();
}

/**
 * Parses the runner's extract of the V8 reports: one script a line, `{"url", "functions"}` (the
 * project's scripts only, from every process that wrote a report). Lines that are not such a script
 * are skipped: a report cut short by a killed process must not lose the others.
 */
export function parseV8Scripts(text: string): V8Script[] {
  const scripts: V8Script[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const s = JSON.parse(line) as Partial<V8Script>;
      if (typeof s.url === 'string' && Array.isArray(s.functions)) scripts.push(s as V8Script);
    } catch {
      // a line cut short
    }
  }
  return scripts;
}

/** The project path of a script's `file://` URL under projectDir; null for anything else. */
function projectPath(url: string, projectDir: string): string | null {
  if (!url.startsWith('file://')) return null;
  let path: string;
  try {
    path = decodeURIComponent(new URL(url).pathname);
  } catch {
    return null;
  }
  const prefix = projectDir.replace(/\/$/, '') + '/';
  return path.startsWith(prefix) ? path.slice(prefix.length) : null;
}

/**
 * The offsets of the first character of each line of code: not blank, not only a comment (`//`, or
 * inside or opening a block comment). Approximate by design: a comment marker inside a string counts.
 */
export function codeLineOffsets(source: string): number[] {
  const out: number[] = [];
  let inBlock = false;
  let offset = 0;
  for (const line of source.split('\n')) {
    const indent = line.length - line.trimStart().length;
    const text = line.trim();
    const start = offset + indent;
    offset += line.length + 1;
    if (inBlock) {
      if (text.includes('*/')) inBlock = false;
      continue;
    }
    if (text === '' || text.startsWith('//')) continue;
    if (text.startsWith('/*')) {
      inBlock = !text.includes('*/', 2);
      continue;
    }
    out.push(start);
  }
  return out;
}

/**
 * The execution count at each character of source, from one script's ranges: the innermost range
 * holding a character gives its count (V8 nests a function's blocks inside it, functions inside the
 * script).
 */
function paintCounts(length: number, script: V8Script): Int32Array {
  const counts = new Int32Array(length);
  const ranges = script.functions.flatMap((f) => f.ranges).sort((a, b) => b.endOffset - b.startOffset - (a.endOffset - a.startOffset));
  for (const r of ranges) counts.fill(r.count, Math.max(0, r.startOffset), Math.min(length, r.endOffset));
  return counts;
}

/**
 * The share of the project's own JavaScript the run executed, from its V8 reports: a line of code is
 * executed where the first character of it ran in any process; a file no report names ran not at all.
 * Null where the project has no line of JavaScript of its own.
 */
export function v8ProjectCoverage(scripts: readonly V8Script[], files: ProjectFiles, projectDir = '/work'): RunCoverage | null {
  const reports = new Map<string, V8Script[]>();
  for (const s of scripts) {
    const path = projectPath(s.url, projectDir);
    if (path !== null) reports.set(path, [...(reports.get(path) ?? []), s]);
  }
  let total = 0;
  let executed = 0;
  let filesExecuted = 0;
  const paths = projectScriptPaths(files);
  for (const path of paths) {
    // Node strips a byte order mark before it compiles: V8's offsets start after it.
    const source = files[path].replace(/^\uFEFF/, '');
    const lines = codeLineOffsets(source);
    const painted = (reports.get(path) ?? []).map((s) => paintCounts(source.length, s));
    const ran = lines.filter((at) => painted.some((counts) => counts[at] > 0)).length;
    total += lines.length;
    executed += ran;
    if (ran > 0) filesExecuted += 1;
  }
  return runCoverage('v8', 'line', { total, executed, files: paths.length, filesExecuted });
}
