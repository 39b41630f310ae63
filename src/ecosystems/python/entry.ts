/**
 * How to start a generated Python project without arguments:
 * - `script`: `python <path>` (path relative to the project root)
 * - `module`: `python -m <module>`, for a top-level package that has a `__main__.py`
 * An object rather than a command line so the runner builds argv itself and never parses strings.
 */
export type PythonEntry = { kind: 'script'; path: string } | { kind: 'module'; module: string };

/** The entry chosen (null: none) and, in one line, why. */
export interface PythonEntryChoice {
  entry: PythonEntry | null;
  reason: string;
}

const CONVENTIONAL_SCRIPTS = ['main.py', '__main__.py', 'app.py', 'run.py', 'cli.py', 'src/main.py'];
const MAIN_GUARD = /^\s*if\s+\(?\s*__name__\s*==\s*(["'])__main__\1\s*\)?\s*:/m;
const PACKAGE_MAIN = /^([A-Za-z_][A-Za-z0-9_]*)\/__main__\.py$/;
const PACKAGING = ['setup.py', '__init__.py', 'noxfile.py', 'fabfile.py'];

/** A test module: tests.py, test.py, test_*.py, *_test.py, conftest.py, or any file under a tests/ or test/ folder. */
export function isPythonTestModule(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return /(?:^|\/)tests?\//.test(path) || /^(?:tests?|conftest)\.py$|^test_.*\.py$|_test\.py$/.test(name);
}

/**
 * In order: the first conventional script present (main.py, __main__.py, app.py, run.py, cli.py, then
 * src/main.py); the only top-level script with an `if __name__ == "__main__":` guard; the only
 * top-level package with a `__main__.py` (as a module); the only top-level script. Test modules
 * (isPythonTestModule) and packaging files (setup.py, noxfile.py, fabfile.py) are never candidates.
 * No entry when none or ambiguous.
 */
export function choosePythonEntry(files: Record<string, string>): PythonEntryChoice {
  const conventional = CONVENTIONAL_SCRIPTS.find((path) => path in files);
  if (conventional) return { entry: { kind: 'script', path: conventional }, reason: `conventional script ${conventional} (first of ${CONVENTIONAL_SCRIPTS.join(', ')})` };

  const topLevel = Object.keys(files)
    .filter((path) => !path.includes('/') && path.endsWith('.py'))
    .sort();
  const tests = topLevel.filter(isPythonTestModule);
  const aside = tests.length === 0 ? '' : ` (${tests.join(', ')} ${tests.length === 1 ? 'is a test module' : 'are test modules'})`;
  const scripts = topLevel.filter((path) => !isPythonTestModule(path) && !PACKAGING.includes(path));
  const guarded = scripts.filter((path) => MAIN_GUARD.test(files[path]));
  if (guarded.length === 1) return { entry: { kind: 'script', path: guarded[0] }, reason: `the only top-level script with a __main__ guard ${guarded[0]}${aside}` };

  const packages = Object.keys(files)
    .map((path) => PACKAGE_MAIN.exec(path)?.[1])
    .filter((name): name is string => name !== undefined && name !== 'test' && name !== 'tests');
  if (packages.length === 1) return { entry: { kind: 'module', module: packages[0] }, reason: `the only top-level package with a __main__.py ${packages[0]} (python -m ${packages[0]})` };

  if (scripts.length === 1) return { entry: { kind: 'script', path: scripts[0] }, reason: `the only top-level script ${scripts[0]}${aside}` };
  const found =
    guarded.length > 1
      ? `${guarded.length} top-level scripts with a __main__ guard (${guarded.join(', ')})`
      : scripts.length === 0
        ? 'no top-level script'
        : `${scripts.length} top-level scripts, none alone with a __main__ guard (${scripts.join(', ')})`;
  const packs = packages.length > 1 ? `, ${packages.length} packages with a __main__.py` : '';
  return { entry: null, reason: `no entry point: no ${CONVENTIONAL_SCRIPTS.join('/')}, ${found}${packs}${aside}` };
}

/** choosePythonEntry's entry alone. */
export function findPythonEntry(files: Record<string, string>): PythonEntry | null {
  return choosePythonEntry(files).entry;
}
