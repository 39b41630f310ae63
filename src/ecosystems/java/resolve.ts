const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;
const SCOPES = 'compile|provided|runtime|test|system|import';
// `group:artifact:type[:classifier]:version:scope`, then `:/path/to.jar` with outputAbsoluteArtifactFilename,
// ` (optional)` and ` -- module name [(auto)]` in maven-dependency-plugin 3.x. The scope is required so that other coordinates in the log
// (downloads, warnings about POMs) never count.
const RESOLVED_ARTIFACT = new RegExp(`^\\s+([^:\\s]+):([^:\\s]+):([^:\\s]+)(?::([^:\\s]+))?:([^:\\s]+):(${SCOPES})(?::\\/\\S*)?(?:\\s.*)?$`);

/**
 * The artifactIds in the output of `mvn dependency:list`: the console log (`[INFO]    g:a:jar:v:scope`,
 * with or without colours) or the file `-DoutputFile` writes. That list is the whole resolved closure,
 * every scope included. Sorted and unique; empty when the project has no dependencies (`none`).
 */
export function parseDependencyList(output: string): string[] {
  return [...new Set(parseResolvedArtifacts(output).map((a) => a.artifactId))].sort();
}

/** One resolved artifact of `mvn dependency:list`, with its coordinates. */
export interface ResolvedArtifact {
  groupId: string;
  artifactId: string;
  type: string;
  classifier: string | null;
  version: string;
  scope: string;
}

/** The resolved artifacts of `mvn dependency:list` output (see parseDependencyList), in the order listed. */
export function parseResolvedArtifacts(output: string): ResolvedArtifact[] {
  const artifacts: ResolvedArtifact[] = [];
  for (const rawLine of output.split(/\r?\n/)) {
    const line = rawLine.replace(ANSI, '').replace(/^\[INFO\]/, '');
    const match = RESOLVED_ARTIFACT.exec(line);
    if (match) artifacts.push({ groupId: match[1], artifactId: match[2], type: match[3], classifier: match[4] ?? null, version: match[5], scope: match[6] });
  }
  return artifacts;
}

/** The artifactIds of `mvn dependency:list` output by where they are used, each list sorted and unique. */
export interface ScopedArtifactIds {
  /** compile and runtime scope: the run's classpath (what copy-dependencies -DincludeScope=runtime copies). */
  classpath: string[];
  /** test scope only: compiled and run with the tests, never on the run's classpath. */
  test: string[];
  /** provided and system scope only: on javac's classpath, not the run's. */
  provided: string[];
}

const CLASSPATH_SCOPES = new Set(['compile', 'runtime']);

/**
 * The artifactIds of `mvn dependency:list` output (see parseDependencyList) split by scope. An
 * artifactId listed under several scopes (two classifiers) goes to the widest: the classpath before
 * provided before test.
 */
export function parseDependencyScopes(output: string): ScopedArtifactIds {
  const artifacts = parseResolvedArtifacts(output);
  const classpath = new Set(artifacts.filter((a) => CLASSPATH_SCOPES.has(a.scope)).map((a) => a.artifactId));
  const provided = new Set(artifacts.filter((a) => (a.scope === 'provided' || a.scope === 'system') && !classpath.has(a.artifactId)).map((a) => a.artifactId));
  const test = new Set(artifacts.filter((a) => a.scope === 'test' && !classpath.has(a.artifactId) && !provided.has(a.artifactId)).map((a) => a.artifactId));
  const sorted = (names: Set<string>) => [...names].sort();
  return { classpath: sorted(classpath), test: sorted(test), provided: sorted(provided) };
}
