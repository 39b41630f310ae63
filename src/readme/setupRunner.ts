import { shellQuote } from '../text/shellQuote';

/** Where the setup script and its runner go in the container (outside /repo, which pyright reads). */
export const PASS_DIR = '/tmp/envgap-pass';
export const SETUP_SCRIPT = `${PASS_DIR}/setup.sh`;
export const RUNNER_SCRIPT = `${PASS_DIR}/run.sh`;
/** The interpreter the script left on PATH, written by the runner as its shell exits. */
export const INTERPRETER_FILE = `${PASS_DIR}/python`;

/**
 * EnvBench's `python_build.sh`: `set -e`, then the agent's script sourced in that same shell from the
 * repository's root, so `set -e` governs its commands and whatever it activates (a venv, an exported
 * PATH) is still in force when the interpreter is looked up. EnvBench then runs `python -m pyright`:
 * the `python` on PATH is the environment's interpreter. The EXIT trap writes that path down even
 * when the script ends with its own `exit` (which, sourced, ends this shell); `python3` where there is
 * no bare `python` on PATH.
 */
export const RUNNER = `trap '{ command -v python || command -v python3; } > ${INTERPRETER_FILE} 2>/dev/null' EXIT
set -e
cd /repo
source ${SETUP_SCRIPT}
`;

/**
 * What EnvBench's Python image offers a script and Debian's does not: a bare `python` (pyenv's there)
 * and a pip that installs into it (Debian's Python is externally managed, PEP 668). Without these a
 * script written for EnvBench's image (`python -m pip install -e .`) would fail here for the image's
 * sake, not its own.
 */
export const PARITY_COMMAND = 'ln -sf /usr/bin/python3 /usr/local/bin/python';
export const PARITY_ENV = ['PIP_BREAK_SYSTEM_PACKAGES=1'];

/** The index pip uses in the container: the configured mirror, else PyPI. */
export function indexUrl(pipIndexUrl: string | undefined): string {
  const base = pipIndexUrl ?? 'https://pypi.org/simple/';
  return base.endsWith('/') ? base : `${base}/`;
}

/** Whether the index answers from inside the container (its page for pip), before any script runs. */
export function preflightCommand(index: string): string {
  const url = `${index}pip/`;
  return `code=$(curl -sS -o /dev/null -w '%{http_code}' --max-time 20 --retry 2 --retry-all-errors ${shellQuote(url)}) && case $code in 2*|3*) echo "index answers: $code" ;; *) echo "index answered HTTP $code"; exit 1 ;; esac`;
}
