/**
 * How to start a generated Python project without arguments:
 * - `script`: `python <path>` (path relative to the project root)
 * - `module`: `python -m <module>`, for a top-level package that has a `__main__.py`
 * An object rather than a command line so the runner builds argv itself and never parses strings.
 */
export type PythonEntry = { kind: 'script'; path: string } | { kind: 'module'; module: string };

const CONVENTIONAL_SCRIPTS = ['main.py', '__main__.py', 'app.py', 'run.py', 'cli.py', 'src/main.py'];
const MAIN_GUARD = /^\s*if\s+\(?\s*__name__\s*==\s*(["'])__main__\1\s*\)?\s*:/m;
const PACKAGE_MAIN = /^([A-Za-z_][A-Za-z0-9_]*)\/__main__\.py$/;

/**
 * In order: the first conventional script present (main.py, __main__.py, app.py, run.py, cli.py, then
 * src/main.py); the only top-level script with an `if __name__ == "__main__":` guard; the only
 * top-level package with a `__main__.py` (as a module); the only top-level script. Packaging and test
 * files (setup.py, conftest.py, test_*.py, *_test.py) are never candidates. Null when none or ambiguous.
 */
export function findPythonEntry(files: Record<string, string>): PythonEntry | null {
  const conventional = CONVENTIONAL_SCRIPTS.find((path) => path in files);
  if (conventional) return { kind: 'script', path: conventional };

  const scripts = Object.keys(files).filter(isTopLevelScript).sort();
  const guarded = scripts.filter((path) => MAIN_GUARD.test(files[path]));
  if (guarded.length === 1) return { kind: 'script', path: guarded[0] };

  const packages = Object.keys(files)
    .map((path) => PACKAGE_MAIN.exec(path)?.[1])
    .filter((name): name is string => name !== undefined);
  if (packages.length === 1) return { kind: 'module', module: packages[0] };

  if (scripts.length === 1) return { kind: 'script', path: scripts[0] };
  return null;
}

function isTopLevelScript(path: string): boolean {
  if (path.includes('/') || !path.endsWith('.py')) return false;
  return !['setup.py', 'conftest.py', '__init__.py', 'noxfile.py', 'fabfile.py'].includes(path) && !/^test_.*\.py$|_test\.py$/.test(path);
}
