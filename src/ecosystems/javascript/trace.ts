import { normalizePosixPath, posixDirname } from '../posixPath';

/**
 * Parses the container's package index: one JSON object a line, for each folder under node_modules
 * that holds a package.json with a name,
 *
 *   {"dir": "/work/node_modules/@babel/core", "name": "@babel/core"}
 *
 * into folder (normalised) -> name. Blank lines are skipped, and so are entries whose name is not a
 * non-empty string (a package.json without a name is no package). Throws on a line that is not such
 * an object.
 */
export function parsePackageIndex(text: string): Map<string, string> {
  const index = new Map<string, string>();
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      entry = null;
    }
    const { dir, name } = (typeof entry === 'object' && entry !== null ? entry : {}) as { dir?: unknown; name?: unknown };
    if (typeof dir !== 'string' || !dir.startsWith('/')) {
      throw new Error(`package index line ${i + 1} is not {"dir": "<absolute folder>", "name": "<name>"}: ${JSON.stringify(line.slice(0, 200))}`);
    }
    if (typeof name === 'string' && name !== '') index.set(normalizePosixPath(dir), name);
  });
  return index;
}

/**
 * The package a file inside node_modules belongs to: the nearest enclosing folder (or the path itself,
 * for a package folder) that index names, looking no higher than the outermost node_modules. Null for
 * a file in no node_modules or in no indexed package. index keys must be normalised paths, as
 * parsePackageIndex makes them.
 */
export function packageOfNodeModulesFile(path: string, index: Map<string, string>): string | null {
  let dir = normalizePosixPath(path);
  while (dir.includes('/node_modules/')) {
    const name = index.get(dir);
    if (name !== undefined) return name;
    dir = posixDirname(dir);
  }
  return null;
}

/**
 * D3 for JavaScript: the sorted unique names of the packages whose files under
 * `<projectDir>/node_modules` the program opened. The project's own files, Node's built-in modules
 * and anything outside the project's node_modules map to nothing.
 */
export function mapNodeTrace(opened: string[], opts: { projectDir: string; packageDirs: Map<string, string> }): string[] {
  const nodeModules = `${normalizePosixPath(opts.projectDir).replace(/\/$/, '')}/node_modules/`;
  const names = new Set<string>();
  for (const path of opened) {
    const normalized = normalizePosixPath(path);
    if (!normalized.startsWith(nodeModules)) continue;
    const name = packageOfNodeModulesFile(normalized, opts.packageDirs);
    if (name !== null) names.add(name);
  }
  return [...names].sort();
}
