import type { RunCoverage } from '../../domain/coverage';
import { parseCoverageJson, PYTHON_COVERAGE_DIR, PYTHON_COVERAGE_VERSION } from '../../ecosystems/python/coverage';
import { OUT, type Steps } from './steps';

const RC = `${OUT}/coveragerc`;

/**
 * The harness's files: the rc (data beside the harness, the project's folder measured with files
 * never imported, warnings off so the run's output is the program's) and the wrapper, which runs the
 * program as `coverage run` does (sys.argv, sys.path[0], `__main__`, its exit status, its traceback
 * without coverage's frames). The harness's folder stays last on sys.path: only `import coverage` finds it.
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
    `sys.path.append(${JSON.stringify(PYTHON_COVERAGE_DIR)})`,
    'from coverage.cmdline import main',
    `sys.exit(main(["run", "--rcfile=${RC}", *sys.argv[1:]]))`,
    '',
  ].join('\n'),
};

/**
 * Makes sure the image has coverage.py in the harness's folder (the Python recipe bakes it in, so the run
 * needs no index for it); its absence is the harness's fault, never the program's.
 */
export async function checkCoverage<A extends string>(steps: Steps<A>): Promise<void> {
  await steps.harness(`test -f ${PYTHON_COVERAGE_DIR}/coverage/cmdline.py`, `finding coverage.py ${PYTHON_COVERAGE_VERSION} in the image (${PYTHON_COVERAGE_DIR})`);
  steps.note(`envgap: run under coverage.py ${PYTHON_COVERAGE_VERSION} (from ${PYTHON_COVERAGE_DIR}, baked into the image, outside the venv)`);
}

/** The program's python command line (`python main.py ARGS`, `python -m pkg ARGS`) run under coverage.py. */
export function underCoverage(python: string[]): string[] {
  return [python[0], `${OUT}/cov_run.py`, ...python.slice(1)];
}

/** The share of the project's own code the run executed, from coverage.py's data; null where there is none. */
export async function measurePythonCoverage<A extends string>(steps: Steps<A>): Promise<RunCoverage | null> {
  const report = `import sys; sys.path.append(${JSON.stringify(PYTHON_COVERAGE_DIR)}); from coverage.cmdline import main; sys.exit(main(["json", "--rcfile=${RC}", "--ignore-errors", "-q", "-o", "${OUT}/coverage.json"]))`;
  const r = await steps.session.exec(['python', '-c', report], { step: 'setup', timeoutS: 120, workdir: '/work' });
  if (r.exitCode !== 0) return null;
  const text = await steps.session.readText(`${OUT}/coverage.json`);
  return text === null ? null : parseCoverageJson(text);
}
