import type { RunCoverage } from '../../domain/coverage';
import { parseCoverageJson } from '../../ecosystems/python/coverage';
import { OUT, type Steps } from './steps';

/** coverage.py, installed for the harness into a folder of its own: never in the venv, so never in `pip list` (D2) nor in the distributions D3 maps to. */
export const COVERAGE_VERSION = '7.6.10';
export const COVERAGE_TOOLS = `${OUT}/tools`;
const RC = `${OUT}/coveragerc`;

/**
 * The harness's files: the rc (data beside the harness, the project's folder measured with files
 * never imported, warnings off so the run's output is the program's) and the wrapper, which runs the
 * program as `coverage run` does (sys.argv, sys.path[0], `__main__`, its exit status, its traceback
 * without coverage's frames). The tools folder stays last on sys.path: only `import coverage` finds it.
 */
export const COVERAGE_FILES = {
  coveragerc: [
    '[run]',
    `data_file = ${OUT}/.coverage`,
    'source = /work',
    'disable_warnings = no-data-collected, module-not-imported, module-not-measured, couldnt-parse, no-ctracer',
    '[report]',
    'include_namespace_packages = true',
    '',
  ].join('\n'),
  'cov_run.py': [
    'import sys',
    `sys.path.append(${JSON.stringify(COVERAGE_TOOLS)})`,
    'from coverage.cmdline import main',
    `sys.exit(main(["run", "--rcfile=${RC}", *sys.argv[1:]]))`,
    '',
  ].join('\n'),
};

/**
 * Installs coverage.py into the tools folder (from the package index, as the install step reaches it,
 * before the caches are sealed); false where that failed: the run then goes without it.
 */
export async function installCoverage<A extends string>(steps: Steps<A>): Promise<boolean> {
  const r = await steps.session.exec(['pip', 'install', '--no-input', '--no-deps', '--disable-pip-version-check', '--target', COVERAGE_TOOLS, `coverage==${COVERAGE_VERSION}`], { step: 'setup', timeoutS: 300 });
  if (r.exitCode === 0) return true;
  steps.note(`envgap: coverage.py could not be installed for the harness (exit ${r.exitCode}); the run goes without it: ${r.output.trim().split('\n').slice(-1)[0] ?? ''}`);
  return false;
}

/** The program's python command line (`python main.py ARGS`, `python -m pkg ARGS`) run under coverage.py. */
export function underCoverage(python: string[]): string[] {
  return [python[0], `${OUT}/cov_run.py`, ...python.slice(1)];
}

/** The share of the project's own code the run executed, from coverage.py's data; null where there is none. */
export async function measurePythonCoverage<A extends string>(steps: Steps<A>): Promise<RunCoverage | null> {
  const report = `import sys; sys.path.append(${JSON.stringify(COVERAGE_TOOLS)}); from coverage.cmdline import main; sys.exit(main(["json", "--rcfile=${RC}", "--ignore-errors", "-q", "-o", "${OUT}/coverage.json"]))`;
  const r = await steps.session.exec(['python', '-c', report], { step: 'setup', timeoutS: 120, workdir: '/work' });
  if (r.exitCode !== 0) return null;
  const text = await steps.session.readText(`${OUT}/coverage.json`);
  return text === null ? null : parseCoverageJson(text);
}
