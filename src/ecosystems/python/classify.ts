import type { ErrorClass } from '../../domain/instance';
import { environmentFailure } from '../environmentFailure';
import { SHELL_COMMAND_NOT_FOUND } from '../missingExecutable';

export type PythonStep = 'install' | 'run';

export interface PythonFailure {
  step: PythonStep;
  exitCode: number | null;
  timedOut: boolean;
  /** stdout and stderr together, as the step printed them. */
  output: string;
}

// --- install (pip) ---

// Signs that fetching itself failed, whatever else the log says.
const FETCH_FATAL = [
  /Could not fetch URL/,
  /Max retries exceeded/,
  /HTTP error \d{3} while getting/,
  /fatal: unable to access/,
  /fatal: could not read (?:Username|Password)/,
  /fatal: repository '[^']*' not found/,
  /ERROR: Could not install packages due to an OSError: .*(?:Connection|SSL|[Tt]imed? ?out|Errno -\d)/,
];
// Network trouble pip may have recovered from by retrying: decisive only when no build failed.
const NETWORK_TROUBLE = [
  /Retrying \(Retry\(.*after connection broken/,
  /NewConnectionError|Failed to establish a new connection/,
  /Temporary failure in name resolution|Name or service not known|nodename nor servname provided|getaddrinfo failed|Could not resolve host/,
  /Connection (?:refused|reset by peer|timed out|aborted)|ConnectTimeoutError|ReadTimeoutError|Read timed out/,
  /SSLError|SSLCertVerificationError|CERTIFICATE_VERIFY_FAILED|certificate verify failed/,
  /ProxyError|Tunnel connection failed/,
];
const BUILD_FAILED = [
  /Failed building wheel/,
  /subprocess-exited-with-error/,
  /error: command '[^']+' failed/,
  /Failed to build /,
  /did not run successfully/,
];
// The manifest names a project or version the index does not have.
const NOT_ON_INDEX = [/No matching distribution found for/, /Could not find a version that satisfies the requirement/];
const CONFLICT = [/ResolutionImpossible/, /conflicting dependencies/, /Cannot install .* because these package versions have conflicting dependencies/];
// Headers that come from Python or from Python packages: missing ones are build problems, not system libraries.
const PYTHON_HEADER = /^(?:Python\.h|pyconfig\.h|structmember\.h|numpy\/|pybind11\/)/;
const SYSTEM_LIBRARY_AT_BUILD = [
  /pg_config executable not found/,
  /mysql_config:? not found/,
  /was not found in the pkg-config search path/,
  /pkg-config: (?:not found|command not found)/,
  /Did not find pkg-config/,
  /Could not run pkg-config/,
  /pkg-config (?:is )?not (?:found|installed)/i,
  /Dependency "[^"]+" not found/,
  /cannot find -l\S+/,
  /library not found/i,
  /cannot open shared object file/,
  /development packages are installed/,
];

// --- run (python) ---

const SYSTEM_LIBRARY_AT_RUN = [
  /cannot open shared object file/,
  /OSError: (?:cannot load library|no library called)/,
  /version `GLIBC\S*' not found/,
  // C extension modules of the standard library, present only when their system library was.
  /No module named '(?:_?tkinter|_sqlite3|_ssl|_ctypes|_bz2|_lzma|_curses|_dbm|_gdbm|_uuid|_hashlib)'/,
  /TesseractNotFoundError/,
  /ExecutableNotFound: failed to execute/,
  // A system program the code runs is not installed: python-nmap's PortScannerError, a shell of os.system.
  /\bprogram was not found in path\b/,
  SHELL_COMMAND_NOT_FOUND,
];
// subprocess could not start a program: the FileNotFoundError is raised from _execute_child (not a data file).
const PROGRAM_NOT_ON_PATH = /File "[^"]*subprocess\.py", line \d+, in _execute_child[\s\S]*?FileNotFoundError: \[Errno 2\] No such file or directory: '([^']+)'/;
const MISSING_MODULE = [
  /ModuleNotFoundError: No module named/,
  /ImportError: No module named/,
  // Without a file Y was not found (a namespace package without the submodule); with one, see below.
  /ImportError: cannot import name (?!.*circular import)(?!.*\((?:\/|[A-Za-z]:\\)[^)]*\)\s*$)/m,
  /Missing optional dependency/,
  /DistributionNotFound: The '[^']+' distribution was not found/,
  /PackageNotFoundError: No package metadata was found/,
  /^ImportError: .*\b(?:pip install|please install)\b/im,
];
// Also numpy's _ArrayMemoryError.
const OUT_OF_MEMORY = [/MemoryError\b/];

const anyMatch = (patterns: RegExp[], text: string) => patterns.some((p) => p.test(text));

/**
 * The error class of a failed install or run step.
 * Install: FetchFail for fetch faults (network evidence counts only when no build failed, as pip retries),
 * MissingDep when the index lacks a named project or version, SystemLib when a build misses a system
 * library, header or pkg-config, otherwise Build (conflicts, compiler errors, Python.h, bad manifests).
 * Run: what the machine cannot give (a service, a host, credentials, a download: src/ecosystems/environmentFailure.ts) is Environment, first;
 * then SystemLib for missing shared objects and missing system programs (subprocess's FileNotFoundError
 * for the program, python-nmap's `nmap program was not found in path`, a shell's `nmap: not found`),
 * MissingDep for missing Python modules (`cannot import name 'X' from 'Y' (unknown location)` too, but
 * not when Python names Y's file: Y is installed and lacks X, a code error, Runtime), otherwise Runtime
 * (MemoryError and a SIGKILL, exit 137, included). A timeout is always Timeout. A step that hit the
 * container's memory or pids limit is classed before these rules, from the cgroup's counters
 * (MemoryLimit, PidsLimit: src/ecosystems/resourceLimits.ts); what reaches them hit no limit.
 */
export function classifyPythonFailure(f: PythonFailure): ErrorClass {
  if (f.timedOut) return 'Timeout';
  return f.step === 'install' ? classifyInstall(f.output) : classifyRun(f.exitCode, f.output);
}

function classifyInstall(output: string): ErrorClass {
  const buildFailed = anyMatch(BUILD_FAILED, output);
  if (anyMatch(FETCH_FATAL, output)) return 'FetchFail';
  if (!buildFailed && anyMatch(NETWORK_TROUBLE, output)) return 'FetchFail';
  if (anyMatch(CONFLICT, output)) return 'Build';
  if (anyMatch(NOT_ON_INDEX, output)) return 'MissingDep';
  if (missesSystemHeader(output) || anyMatch(SYSTEM_LIBRARY_AT_BUILD, output)) return 'SystemLib';
  return 'Build';
}

function missesSystemHeader(output: string): boolean {
  for (const match of output.matchAll(/fatal error: ([^\s:]+): No such file or directory/g)) {
    if (!PYTHON_HEADER.test(match[1])) return true;
  }
  return false;
}

/** A program subprocess could not find on PATH (`nmap`, `/usr/bin/ffmpeg`); not one of the project's own (`./run.sh`, /work/...). */
function missesProgram(output: string): boolean {
  const program = PROGRAM_NOT_ON_PATH.exec(output)?.[1];
  return program !== undefined && !/^(?:\.{1,2}\/|\/work\/)/.test(program);
}

function classifyRun(exitCode: number | null, output: string): ErrorClass {
  if (environmentFailure(output)) return 'Environment';
  if (exitCode === 137 || anyMatch(OUT_OF_MEMORY, output)) return 'Runtime';
  if (anyMatch(SYSTEM_LIBRARY_AT_RUN, output) || missesProgram(output)) return 'SystemLib';
  if (anyMatch(MISSING_MODULE, output)) return 'MissingDep';
  return 'Runtime';
}

export { errorTail } from '../errorTail';
