import { normalizePosixPath } from '../posixPath';
import { splitShellWords } from './entryShell';

const CONVENTIONAL_ENTRIES = ['index', 'main', 'app', 'server', 'src/index'].flatMap((stem) => ['.js', '.mjs', '.cjs'].map((ext) => stem + ext));
const NODE_COMMANDS = new Set(['node', 'nodejs']);
// Node options whose value is the next word; `-e`/`-p` run code instead of a file.
const OPTIONS_WITH_VALUE = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--env-file']);
const CODE_OPTIONS = new Set(['-e', '--eval', '-p', '--print', '-i', '--interactive', '--test']);

interface PackageJson {
  main?: unknown;
  scripts?: { start?: unknown };
  bin?: unknown;
}

/**
 * The arguments for `node` (run in the project root) that start a generated project, in order: the
 * package.json `main` when that file exists (also with `.js` appended, or its `index.js` for a
 * folder); the `start` script when it is plainly `node [options] <file> [args]`; a single `bin`
 * script that exists; the first of index, main, app, server and src/index with `.js`, `.mjs` or
 * `.cjs`. Null when there is none.
 */
export function findNodeEntry(files: Record<string, string>): string[] | null {
  const pkg = parsePackageJson(files['package.json']);
  const main = typeof pkg.main === 'string' && pkg.main.trim() !== '' ? existingMain(files, pkg.main.trim()) : null;
  if (main) return [main];
  const start = typeof pkg.scripts?.start === 'string' ? nodeArgsOfScript(pkg.scripts.start) : null;
  if (start) return start;
  const bin = singleBin(pkg.bin);
  if (bin !== null && normalizePosixPath(bin) in files) return [normalizePosixPath(bin)];
  const conventional = CONVENTIONAL_ENTRIES.find((path) => path in files);
  return conventional ? [conventional] : null;
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

function existingMain(files: Record<string, string>, main: string): string | null {
  const path = normalizePosixPath(main);
  return [path, `${path}.js`, `${path}/index.js`].find((candidate) => candidate in files) ?? null;
}

function singleBin(bin: unknown): string | null {
  if (typeof bin === 'string') return bin;
  if (typeof bin !== 'object' || bin === null) return null;
  const values = Object.values(bin);
  return values.length === 1 && typeof values[0] === 'string' ? values[0] : null;
}

/** `node [options] <file> [args]` -> [options..., file, args...]; null for any other script. */
export function nodeArgsOfScript(script: string): string[] | null {
  const words = splitShellWords(script);
  if (words === null || words.length < 2 || !NODE_COMMANDS.has(words[0])) return null;
  const options: string[] = [];
  let i = 1;
  while (i < words.length && words[i].startsWith('-')) {
    const option = words[i];
    const name = option.split('=')[0];
    if (CODE_OPTIONS.has(name)) return null;
    options.push(option);
    if (OPTIONS_WITH_VALUE.has(option) && i + 1 < words.length) options.push(words[++i]);
    i++;
  }
  if (i >= words.length) return null;
  const file = words[i].startsWith('/') ? words[i] : normalizePosixPath(words[i]);
  return [...options, file, ...words.slice(i + 1)];
}
