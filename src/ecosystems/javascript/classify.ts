import type { ErrorClass } from '../../domain/instance';
import { environmentFailure } from '../environmentFailure';
import { classifyAptFailure } from '../aptFailure';
import { SHELL_COMMAND_NOT_FOUND } from '../missingExecutable';

export type NodeStep = 'system' | 'install' | 'run';

export interface NodeFailure {
  step: NodeStep;
  exitCode: number | null;
  timedOut: boolean;
  /** stdout and stderr together, as the step printed them. */
  output: string;
}

// --- install (npm install) ---

// `npm ERR! code <CODE>` (npm 9) or `npm error code <CODE>` (npm 10).
const NPM_ERROR_CODE = /^npm (?:ERR!|error) code (\S+)/m;
const NOT_IN_REGISTRY_CODES = new Set(['E404', 'ETARGET', 'ENOVERSIONS']);
const NETWORK_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ESOCKETTIMEDOUT', 'ERR_SOCKET_TIMEOUT', 'EAI_AGAIN', 'ENOTFOUND',
  'EHOSTUNREACH', 'ENETUNREACH', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID', 'EPROTO', 'E401', 'E403',
  'E500', 'E502', 'E503', 'E504', 'EINTEGRITY', 'ENOTCACHED',
]);
const NOT_IN_REGISTRY = [/npm (?:ERR!|error) 404\b/, /No matching version found for/, /is not in this registry/, /fatal: repository '[^']*' not found/];
const NETWORK = [
  /request to https?:\/\/\S+ failed/,
  /getaddrinfo (?:EAI_AGAIN|ENOTFOUND)/,
  /\b(?:ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH)\b/,
  /self[- ]signed certificate|unable to get local issuer certificate|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY/,
  /Could not resolve host|unable to access '/,
];
// The manifest itself: a dependency tree npm cannot satisfy, package.json that is not JSON, a bad spec.
const MANIFEST_CODES = new Set(['ERESOLVE', 'EJSONPARSE', 'EINVALIDPACKAGENAME', 'EINVALIDTAGNAME', 'EUNSUPPORTEDPROTOCOL']);
// A native addon build (or a prebuilt binary's fallback build) failed: network warnings before it are not the cause.
const NATIVE_BUILD_FAILED = [/gyp ERR!/, /node-pre-gyp ERR!/, /make: \*\*\*/, /prebuild-install (?:warn|WARN) build/];
// A native addon whose build misses a header, a library, pkg-config, or a build tool (Python, make, a compiler).
const SYSTEM_LIBRARY_AT_BUILD = [
  /fatal error: [^\s:]+: No such file or directory/,
  /Package \S+ was not found in the pkg-config search path/,
  /No package '[^']+' found/,
  /Package '[^']+', required by '[^']+', not found/,
  /pkg-config: (?:not found|command not found)/,
  /cannot find -l\S+/,
  /cannot open shared object file/,
  /gyp ERR! find Python|Could not find any Python installation/,
  /gyp ERR! stack Error: not found: (?:make|g\+\+|gcc|cc|c\+\+)/,
  /(?:make|g\+\+|gcc|cc|c\+\+|python3?): (?:not found|command not found)/,
];

// --- run (node) ---

const MODULE_NOT_FOUND = /Error: Cannot find module '([^']+)'/g;
const PACKAGE_NOT_FOUND = /ERR_MODULE_NOT_FOUND\]?:? Cannot find package '([^']+)'/;
const SYSTEM_LIBRARY_AT_RUN = [/cannot open shared object file/, /version `GLIBC\S*' not found/];
const OUT_OF_MEMORY = [/JavaScript heap out of memory/];
// A system program the code starts is not installed: child_process's ENOENT (not the project's own ./x),
// or a shell's `nmap: not found` (not under an npm script, where it is as likely a CLI of a package).
const PROGRAM_NOT_SPAWNED = /Error: spawn (?!\.{0,2}\/|\/work\/)\S+ ENOENT/;
const NPM_SCRIPT = /^> \S+@\S+ \S+\n> /m;

const anyMatch = (patterns: RegExp[], text: string) => patterns.some((p) => p.test(text));

/**
 * The error class of a failed JavaScript step. A timeout is always Timeout; the system step (apt.txt)
 * is classed as apt failures are.
 * Install: by npm's error code first (E404/ETARGET: MissingDep; network and TLS codes: FetchFail;
 * ERESOLVE, EJSONPARSE and other manifest faults: Build), then by the log: a native build missing a
 * system header, library, pkg-config module or build tool is SystemLib, a package, version or git
 * repository that does not exist MissingDep, network trouble FetchFail (only when no native build
 * failed: a prebuilt binary that could not be downloaded is built instead), anything else Build.
 * Run: what the machine cannot give (a service, a host, credentials, a download: src/ecosystems/environmentFailure.ts) is Environment, first;
 * then a package `require`/`import` could not find is MissingDep (a relative or absolute path is the
 * project's own file: Runtime); a shared object that does not load, or a system program not installed
 * (`spawn nmap ENOENT`; a shell's `nmap: not found` outside an npm script), is SystemLib; anything else Runtime
 * (V8's heap limit and a SIGKILL, exit 137, included). A step that hit the container's memory or pids
 * limit is classed before these rules, from the cgroup's counters (MemoryLimit, PidsLimit:
 * src/ecosystems/resourceLimits.ts).
 */
export function classifyNodeFailure(f: NodeFailure): ErrorClass {
  if (f.timedOut) return 'Timeout';
  if (f.step === 'system') return classifyAptFailure(f);
  return f.step === 'install' ? classifyInstall(f.output) : classifyRun(f.exitCode, f.output);
}

function classifyInstall(output: string): ErrorClass {
  const code = NPM_ERROR_CODE.exec(output)?.[1];
  if (code !== undefined && NOT_IN_REGISTRY_CODES.has(code)) return 'MissingDep';
  if (code !== undefined && NETWORK_CODES.has(code)) return 'FetchFail';
  if (code !== undefined && MANIFEST_CODES.has(code)) return 'Build';
  if (anyMatch(SYSTEM_LIBRARY_AT_BUILD, output)) return 'SystemLib';
  if (anyMatch(NOT_IN_REGISTRY, output)) return 'MissingDep';
  if (!anyMatch(NATIVE_BUILD_FAILED, output) && anyMatch(NETWORK, output)) return 'FetchFail';
  return 'Build';
}

function classifyRun(exitCode: number | null, output: string): ErrorClass {
  if (environmentFailure(output)) return 'Environment';
  if (exitCode === 137 || anyMatch(OUT_OF_MEMORY, output)) return 'Runtime';
  if (anyMatch(SYSTEM_LIBRARY_AT_RUN, output) || PROGRAM_NOT_SPAWNED.test(output)) return 'SystemLib';
  if (SHELL_COMMAND_NOT_FOUND.test(output) && !NPM_SCRIPT.test(output)) return 'SystemLib';
  if (PACKAGE_NOT_FOUND.test(output)) return 'MissingDep';
  for (const match of output.matchAll(MODULE_NOT_FOUND)) {
    if (isPackageSpecifier(match[1])) return 'MissingDep';
  }
  return 'Runtime';
}

/** `lodash`, `lodash/fp`, `@scope/pkg`: a package, not a file of the project (`./x`, `../x`, `/abs`, `file:`, `node:`). */
function isPackageSpecifier(specifier: string): boolean {
  return !/^(?:\.{1,2}(?:\/|$)|\/|file:|node:)/.test(specifier);
}
