import { normalizePosixPath } from '../posixPath';
import { splitShellWords } from './entryShell';

const CONVENTIONAL_ENTRIES = ['index', 'main', 'app', 'server', 'src/index'].flatMap((stem) => ['.js', '.mjs', '.cjs'].map((ext) => stem + ext));
const NODE_COMMANDS = new Set(['node', 'nodejs']);
// Node options whose value is the next word; `-e`/`-p` run code instead of a file.
const OPTIONS_WITH_VALUE = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--env-file', '--watch-path']);
const CODE_OPTIONS = new Set(['-e', '--eval', '-p', '--print', '-i', '--interactive', '--test']);
// Watch mode restarts the program on changes and never exits: the program is run without it.
const WATCH_OPTIONS = new Set(['--watch', '--watch-path', '--watch-preserve-output']);
const WATCHERS = new Set(['nodemon', 'node-dev', 'supervisor']);
const SCRIPT = /\.(?:js|mjs|cjs)$/;
// Top-level .js files that are tools' configuration or tests, not programs.
const NOT_A_PROGRAM = /^\.|\.config\.[mc]?js$|^\.?[\w-]*rc\.[mc]?js$|[.-](?:test|spec)\.[mc]?js$|^gulpfile\.|^Gruntfile\./;

/**
 * How to start a generated JavaScript project: `node <args>` in the project root, or `npm start`
 * for a start script that runs something other than `node <file>`.
 */
export type NodeEntry = { kind: 'node'; args: string[] } | { kind: 'npm-start'; script: string };

/** The entry chosen (null: none) and, in one line, why: the rule that chose it and what was passed over. */
export interface NodeEntryChoice {
  entry: NodeEntry | null;
  reason: string;
}

interface PackageJson {
  main?: unknown;
  scripts?: { start?: unknown; prestart?: unknown };
  bin?: unknown;
}

/**
 * The entry of a generated project, in order:
 * 1. the package.json `start` script when it is plainly `node [options] <file> [args]` (or a watcher,
 *    nodemon or `node --watch`, on a file: run with node, without watching) and that file exists
 *    (as node resolves it: also with `.js` appended, or a folder's index.js); a start script naming an
 *    absent file is passed over, unless a `prestart` script may make it (then `npm start`);
 * 2. `npm start` for a start script that runs anything else (`npm run build && node dist/x.js`,
 *    `ts-node src/index.ts`, an environment prefix, ...);
 * 3. the package.json `main` when that file exists;
 * 4. a single `bin` script that exists;
 * 5. the only top-level .js/.mjs/.cjs file (tool configuration, dotfiles and *.test.js/*.spec.js aside);
 * 6. the first of index, main, app, server and src/index with `.js`, `.mjs` or `.cjs`.
 */
export function chooseNodeEntry(files: Record<string, string>): NodeEntryChoice {
  const pkg = parsePackageJson(files['package.json']);
  const passed: string[] = [];
  const because = (reason: string) => [...passed, reason].join('; ');

  const start = typeof pkg.scripts?.start === 'string' ? pkg.scripts.start.trim() : '';
  if (start !== '') {
    const script = parseNodeScript(start) ?? watchedScript(start);
    if (script) {
      const watching = script.watched ? ' (run with node, without watching)' : '';
      if (resolveFile(files, script.file) !== null) {
        return { entry: { kind: 'node', args: [...script.options, script.file, ...script.args] }, reason: `package.json start script \`${start}\`${watching}` };
      }
      if (typeof pkg.scripts?.prestart === 'string') {
        return { entry: { kind: 'npm-start', script: start }, reason: `start script \`${start}\` names ${script.file}, which is absent, after a prestart script that may make it: npm start` };
      }
      passed.push(`start script names ${script.file}, which is absent`);
    } else {
      return { entry: { kind: 'npm-start', script: start }, reason: `package.json start script \`${start}\` runs more than \`node <file>\`: npm start` };
    }
  }

  if (typeof pkg.main === 'string' && pkg.main.trim() !== '') {
    const main = resolveFile(files, pkg.main.trim());
    if (main !== null) return { entry: { kind: 'node', args: [main] }, reason: because(`package.json main ${main}`) };
    passed.push(`package.json main ${pkg.main.trim()} is absent`);
  }
  const bin = singleBin(pkg.bin);
  if (bin !== null && normalizePosixPath(bin) in files) return { entry: { kind: 'node', args: [normalizePosixPath(bin)] }, reason: because(`package.json bin ${normalizePosixPath(bin)}`) };

  const topLevel = Object.keys(files)
    .filter((path) => !path.includes('/') && SCRIPT.test(path) && !NOT_A_PROGRAM.test(path))
    .sort();
  if (topLevel.length === 1) return { entry: { kind: 'node', args: [topLevel[0]] }, reason: because(`the only top-level script ${topLevel[0]}`) };
  const conventional = CONVENTIONAL_ENTRIES.find((path) => path in files);
  if (conventional) return { entry: { kind: 'node', args: [conventional] }, reason: because(`conventional entry ${conventional} (first of index, main, app, server, src/index)`) };
  const scripts = topLevel.length === 0 ? 'no top-level script' : `${topLevel.length} top-level scripts (${topLevel.join(', ')})`;
  return { entry: null, reason: because(`no entry point: no usable start script, main or bin, ${scripts}, no index/main/app/server/src/index .js/.mjs/.cjs`) };
}

/** The arguments for `node` of chooseNodeEntry's entry, when it is a node run; null otherwise. */
export function findNodeEntry(files: Record<string, string>): string[] | null {
  const { entry } = chooseNodeEntry(files);
  return entry?.kind === 'node' ? entry.args : null;
}

function parsePackageJson(text: string | undefined): PackageJson {
  if (text === undefined) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as PackageJson) : {};
  } catch {
    // npm install fails on it first; the conventional files may still run.
    return {};
  }
}

/** The project file node would load for `file` (relative to the project root, or under /work): itself, with `.js`, or its index.js. */
function resolveFile(files: Record<string, string>, file: string): string | null {
  const relative = file.startsWith('/work/') ? file.slice('/work/'.length) : file;
  if (relative.startsWith('/')) return null;
  const path = normalizePosixPath(relative);
  return [path, `${path}.js`, `${path}/index.js`].find((candidate) => candidate in files) ?? null;
}

function singleBin(bin: unknown): string | null {
  if (typeof bin === 'string') return bin;
  if (typeof bin !== 'object' || bin === null) return null;
  const values = Object.values(bin);
  return values.length === 1 && typeof values[0] === 'string' ? values[0] : null;
}

interface NodeScript {
  options: string[];
  file: string;
  args: string[];
  /** It ran under a watcher or with `--watch`, which this run leaves out. */
  watched: boolean;
}

/** `node [options] <file> [args]`, watch options removed; null for any other script. */
function parseNodeScript(script: string): NodeScript | null {
  const words = splitShellWords(script);
  if (words === null || words.length < 2 || !NODE_COMMANDS.has(words[0])) return null;
  return parseNodeWords(words.slice(1));
}

/** `nodemon [options] <file> [args]` (and node-dev, supervisor): the file, run with node. */
function watchedScript(script: string): NodeScript | null {
  const words = splitShellWords(script);
  if (words === null || words.length !== 2 || !WATCHERS.has(words[0]) || words[1].startsWith('-')) return null;
  return { options: [], file: normalizeFile(words[1]), args: [], watched: true };
}

function parseNodeWords(words: string[]): NodeScript | null {
  const options: string[] = [];
  let watched = false;
  let i = 0;
  while (i < words.length && words[i].startsWith('-')) {
    const option = words[i];
    const name = option.split('=')[0];
    if (CODE_OPTIONS.has(name)) return null;
    const value = OPTIONS_WITH_VALUE.has(option) && i + 1 < words.length ? [words[++i]] : [];
    if (WATCH_OPTIONS.has(name)) watched = true;
    else options.push(option, ...value);
    i++;
  }
  if (i >= words.length) return null;
  return { options, file: normalizeFile(words[i]), args: words.slice(i + 1), watched };
}

function normalizeFile(word: string): string {
  return word.startsWith('/') ? word : normalizePosixPath(word);
}

/** `node [options] <file> [args]` -> [options..., file, args...] (watch options left out); null for any other script. */
export function nodeArgsOfScript(script: string): string[] | null {
  const parsed = parseNodeScript(script);
  return parsed ? [...parsed.options, parsed.file, ...parsed.args] : null;
}
