import type { ErrorClass } from '../../domain/instance';
import { environmentFailure } from '../environmentFailure';
import { classifyAptFailure } from '../aptFailure';
import { SHELL_COMMAND_NOT_FOUND } from '../missingExecutable';

export type CppStep = 'system' | 'configure' | 'build' | 'run';

export interface CppFailure {
  step: CppStep;
  exitCode: number | null;
  timedOut: boolean;
  /** stdout and stderr together, as the step printed them. */
  output: string;
  /** The project's file paths, when the caller has them: a missing header among them is the project's own. */
  projectFiles?: string[];
}

// --- FetchContent (configure) and ExternalProject (build) downloads ---

// The repository, tag or file named does not exist.
const FETCH_NOT_FOUND = [
  /Failed to checkout tag/,
  /fatal: invalid reference/,
  /did not match any file\(s\) known to git/,
  /couldn't find remote ref/,
  /fatal: repository '[^']*' not found/,
  /The requested URL returned error: 404/,
];
const FETCH_FAILED = [
  /Failed to clone repository/,
  /Could not resolve host|Couldn't resolve host name/,
  /Connection timed out|Timeout was reached|Failed to connect to/,
  /SSL certificate problem|server certificate verification failed|gnutls_handshake\(\) failed/,
  /unable to access '/,
  /Each download failed/,
  /Build step for '?\S+?'? failed/,
];
const HASH_MISMATCH = /hash mismatch|does not match expected value/i;

// --- configure: packages and libraries CMake could not find on the system ---

// Matched against the log with whitespace runs collapsed: CMake wraps its messages.
const SYSTEM_PACKAGE_AT_CONFIGURE = [
  /Could not find a package configuration file provided by/,
  /Could not find a configuration file for package/,
  /A required package was not found/,
  /No package '[^']+' found/,
  /Package '[^']+', required by '[^']+', not found/,
  /Could not find \S+ using the following (?:names|files)/,
  /set to NOTFOUND/,
];
// FindPackageHandleStandardArgs as an error; an optional package prints the same as a `-- ` status line.
const REQUIRED_NOT_FOUND = /^(?!\s*--).*Could NOT find \S+/m;

// --- build ---

const MISSING_HEADER = /fatal error: ([^\s:]+): No such file or directory/g;
const SYSTEM_LIBRARY_AT_BUILD = [/cannot find -l\S+/, /No rule to make target '\/usr\/[^']+'/];

// --- run ---

const SYSTEM_LIBRARY_AT_RUN = [
  /error while loading shared libraries: \S+: cannot open shared object file/,
  /version `(?:GLIBC|GLIBCXX|CXXABI)_\S*' not found/,
  // A system program the code runs (system(), popen()) is not installed: the shell says so.
  SHELL_COMMAND_NOT_FOUND,
];
const OUT_OF_MEMORY = [/std::bad_alloc/];

const anyMatch = (patterns: RegExp[], text: string) => patterns.some((p) => p.test(text));

/**
 * The error class of a failed C++ step. A timeout is always Timeout; the system step (apt.txt) is
 * classed as apt failures are.
 * Configure and build: a download of FetchContent (or ExternalProject) that names no existing
 * repository, tag or file is MissingDep, a hash mismatch Build, other download failures FetchFail; a
 * package, pkg-config module or library CMake could not find, a header from outside the project that
 * the compiler could not find, or a library the linker could not find is SystemLib; anything else
 * (compile errors, undefined references, CMake syntax) is Build.
 * Run: what the machine cannot give (a service, a host, credentials, a download: src/ecosystems/environmentFailure.ts) is Environment, first;
 * then a shared library that does not load, or a system program not installed (`sh: 1: nmap: not
 * found` from system() or popen()), is SystemLib; anything else Runtime (std::bad_alloc and a
 * SIGKILL, exit 137, included). A step that hit the container's memory or pids limit (a compiler
 * killed for memory, say) is classed before these rules, from the cgroup's counters (MemoryLimit,
 * PidsLimit: src/ecosystems/resourceLimits.ts).
 */
export function classifyCppFailure(f: CppFailure): ErrorClass {
  if (f.timedOut) return 'Timeout';
  switch (f.step) {
    case 'system':
      return classifyAptFailure(f);
    case 'run':
      return classifyRun(f.exitCode, f.output);
    default:
      return classifyBuild(f);
  }
}

function classifyBuild(f: CppFailure): ErrorClass {
  const flat = f.output.replace(/\s+/g, ' ');
  if (anyMatch(FETCH_NOT_FOUND, f.output)) return 'MissingDep';
  if (HASH_MISMATCH.test(f.output)) return 'Build';
  if (anyMatch(FETCH_FAILED, f.output)) return 'FetchFail';
  if (anyMatch(SYSTEM_PACKAGE_AT_CONFIGURE, flat) || REQUIRED_NOT_FOUND.test(f.output)) return 'SystemLib';
  if (missesOutsideHeader(f.output, f.projectFiles)) return 'SystemLib';
  if (anyMatch(SYSTEM_LIBRARY_AT_BUILD, f.output)) return 'SystemLib';
  return 'Build';
}

function missesOutsideHeader(output: string, projectFiles: string[] | undefined): boolean {
  for (const match of output.matchAll(MISSING_HEADER)) {
    if (!isProjectHeader(match[1], output, projectFiles)) return true;
  }
  return false;
}

/**
 * With the project's files: whether one of them is the header. Without: whether it was included with
 * quotes and no folder (`#include "utils.h"`), as g++ echoes the include line under the error.
 */
function isProjectHeader(header: string, output: string, projectFiles: string[] | undefined): boolean {
  if (projectFiles !== undefined) return projectFiles.some((file) => file === header || file.endsWith(`/${header}`));
  const quoted = output.includes(`#include "${header}"`);
  return quoted && !header.includes('/');
}

function classifyRun(exitCode: number | null, output: string): ErrorClass {
  if (environmentFailure(output)) return 'Environment';
  if (exitCode === 137 || anyMatch(OUT_OF_MEMORY, output)) return 'Runtime';
  if (anyMatch(SYSTEM_LIBRARY_AT_RUN, output)) return 'SystemLib';
  return 'Runtime';
}
