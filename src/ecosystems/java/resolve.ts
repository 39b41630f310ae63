const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;
const SCOPES = 'compile|provided|runtime|test|system|import';
// `group:artifact:type[:classifier]:version:scope`, then `:/path/to.jar` with outputAbsoluteArtifactFilename,
// ` (optional)` and ` -- module name [(auto)]` in maven-dependency-plugin 3.x. The scope is required so that other coordinates in the log
// (downloads, warnings about POMs) never count.
const RESOLVED_ARTIFACT = new RegExp(`^\\s+([^:\\s]+):([^:\\s]+):([^:\\s]+)(?::([^:\\s]+))?:([^:\\s]+):(?:${SCOPES})(?::\\/\\S*)?(?:\\s.*)?$`);

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
}

/** The resolved artifacts of `mvn dependency:list` output (see parseDependencyList), in the order listed. */
export function parseResolvedArtifacts(output: string): ResolvedArtifact[] {
  const artifacts: ResolvedArtifact[] = [];
  for (const rawLine of output.split(/\r?\n/)) {
    const line = rawLine.replace(ANSI, '').replace(/^\[INFO\]/, '');
    const match = RESOLVED_ARTIFACT.exec(line);
    if (match) artifacts.push({ groupId: match[1], artifactId: match[2], type: match[3], classifier: match[4] ?? null, version: match[5] });
  }
  return artifacts;
}
