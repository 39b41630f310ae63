import type { ErrorClass } from '../../domain/instance';
import { environmentFailure } from '../environmentFailure';
import { classifyAptFailure } from '../aptFailure';
import { classifyJavacErrors, isCompilationFailure, isProjectPackage, packageOf } from './classifyNames';
import { SHELL_COMMAND_NOT_FOUND } from '../missingExecutable';

export type JavaStep = 'system' | 'build' | 'run';

export interface JavaFailure {
  step: JavaStep;
  exitCode: number | null;
  timedOut: boolean;
  /** stdout and stderr together, as the step printed them. */
  output: string;
  /** Packages of the project's own classes, when the caller knows them; otherwise guessed from the output. */
  projectPackages?: string[];
}

// --- build (mvn package, mvn dependency:list) ---

const POM_UNREADABLE = [/Non-parseable POM/, /Malformed POM/, /Non-readable POM/];
// The repository answered that the artifact (or its POM, or the parent POM) does not exist.
const NOT_IN_REPOSITORY = [/Could not find artifact/, /Failure to find \S+ in/, /was not found in https?:\/\//];
const NETWORK = [
  /Could not transfer artifact/,
  /transfer failed for/,
  /Unknown host|UnknownHostException/,
  /Temporary failure in name resolution/,
  /Connection refused|Connection reset|Connect(?:ion)? timed out|ConnectException|ConnectTimeoutException/,
  /Network is unreachable|No route to host/,
  /PKIX path building failed|SSLHandshakeException|Remote host terminated the handshake/,
  /Read timed out|SocketTimeoutException/,
];
const UNRESOLVED = [
  /Could not resolve dependencies/,
  /Failed to collect dependencies/,
  /Failed to read artifact descriptor/,
  /Non-resolvable (?:parent|import) POM/,
  /Plugin \S+ or one of its dependencies could not be resolved/,
];

// javac says `cannot find symbol … location: package P` only when P exists (a jar on the classpath has
// it; otherwise it says `package P does not exist`): the class is not in that version, a code error.
const SYMBOL_IN_EXISTING_PACKAGE = /^.*location:\s+package [\w.]+.*$/gm;

// --- run (java -cp ...) ---

const OUT_OF_MEMORY = [/OutOfMemoryError/];
const SYSTEM_LIBRARY_AT_RUN = [
  /UnsatisfiedLinkError/,
  /cannot open shared object file/,
  /version `GLIBC\S*' not found/,
  // A system program the code starts is not installed: ProcessBuilder/Runtime.exec, or a shell it ran.
  /IOException: Cannot run program "(?!\.{0,2}\/)[^"]+"(?: \(in directory "[^"]*"\))?: error=2, No such file or directory/,
  SHELL_COMMAND_NOT_FOUND,
];
// Signs of a missing dependency that name no class.
const MISSING_AT_RUN = [/JavaFX runtime components are missing/, /No suitable driver found for jdbc:/];
const MISSING_CLASS = /(?:NoClassDefFoundError|ClassNotFoundException):\s+([\w$./]+)/g;
const MAIN_NOT_LOADED = /Could not find or load main class ([\w$.]+)/;
const MAIN_FRAME = /^\s*at ([\w$.]+)\.main\(/m;

const anyMatch = (patterns: RegExp[], text: string) => patterns.some((p) => p.test(text));

/**
 * The error class of a failed Java step. A timeout is always Timeout; the system step (apt.txt) is
 * classed as apt failures are.
 * Build: an unreadable POM is Build; javac failing on a package (`package P does not exist`) or a
 * supertype's class file of no project package is MissingDep, other compilation errors Build, `cannot
 * find symbol` in a package included (`location: package P`: P is on the classpath, the class is not
 * in it); an artifact the repository does not have is
 * MissingDep; network faults are FetchFail; other unresolved dependencies MissingDep; anything else Build.
 * Run: what the machine cannot give (a service, a host, credentials, a download: src/ecosystems/environmentFailure.ts) is Environment, first;
 * then out of memory (or exit 137) is Runtime; native libraries that do not load and system programs
 * not installed (`Cannot run program "nmap": error=2`, a shell's `nmap: not found`) are SystemLib; a
 * class missing from outside the project is MissingDep; anything else Runtime.
 * A step that hit the container's memory or pids limit is classed before these rules, from the
 * cgroup's counters (MemoryLimit, PidsLimit: src/ecosystems/resourceLimits.ts): OutOfMemoryError here is
 * the JVM's heap limit, or a thread refused by a limit the counters did not see.
 */
export function classifyJavaFailure(f: JavaFailure): ErrorClass {
  if (f.timedOut) return 'Timeout';
  if (f.step === 'system') return classifyAptFailure(f);
  return f.step === 'build' ? classifyBuild(f.output) : classifyRun(f);
}

function classifyBuild(output: string): ErrorClass {
  if (anyMatch(POM_UNREADABLE, output)) return 'Build';
  // Compilation starts only once every dependency resolved: network warnings before it do not count.
  if (isCompilationFailure(output)) return classifyJavacErrors(withoutSymbolsOfExistingPackages(output));
  if (anyMatch(NOT_IN_REPOSITORY, output)) return 'MissingDep';
  if (anyMatch(NETWORK, output)) return 'FetchFail';
  if (anyMatch(UNRESOLVED, output)) return 'MissingDep';
  return 'Build';
}

/** The output without javac's `location: package P` lines, which classifyJavacErrors would take for a missing dependency. */
function withoutSymbolsOfExistingPackages(output: string): string {
  return output.replace(SYMBOL_IN_EXISTING_PACKAGE, '');
}

function classifyRun(f: JavaFailure): ErrorClass {
  const { output } = f;
  if (environmentFailure(output)) return 'Environment';
  if (f.exitCode === 137 || anyMatch(OUT_OF_MEMORY, output)) return 'Runtime';
  if (anyMatch(SYSTEM_LIBRARY_AT_RUN, output)) return 'SystemLib';
  if (anyMatch(MISSING_AT_RUN, output)) return 'MissingDep';
  const projectPackages = f.projectPackages ?? guessProjectPackages(output);
  for (const match of output.matchAll(MISSING_CLASS)) {
    const className = match[1].replace(/\//g, '.');
    if (!isProjectPackage(packageOf(className), projectPackages)) return 'MissingDep';
  }
  return 'Runtime';
}

/** The package of the main class: the one the JVM could not load, or the bottom `main` frame of a stack trace. */
function guessProjectPackages(output: string): string[] {
  const mainClass = MAIN_NOT_LOADED.exec(output)?.[1] ?? MAIN_FRAME.exec(output)?.[1];
  return mainClass === undefined ? [] : [packageOf(mainClass)];
}
