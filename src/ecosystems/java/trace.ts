import { normalizePosixPath } from '../posixPath';

// A deployed snapshot's file carries a timestamp instead of `SNAPSHOT`: 1.0-SNAPSHOT/a-1.0-20240105.101010-3.jar
const SNAPSHOT_TIMESTAMP = /^\d{8}\.\d{6}-\d+/;

/**
 * The artifactId of a jar in repository layout under one of roots,
 * `<root>/<group path>/<artifactId>/<version>/<artifactId>-<version>[-classifier].jar`; null for any
 * other path, and for a file whose name does not start with `<artifactId>-<version>`.
 */
export function artifactIdOfJar(path: string, roots: string[]): string | null {
  const normalized = normalizePosixPath(path);
  if (!normalized.endsWith('.jar')) return null;
  for (const root of roots) {
    const prefix = `${normalizePosixPath(root)}/`;
    if (!normalized.startsWith(prefix)) continue;
    const segments = normalized.slice(prefix.length).split('/');
    // At least one group segment, then artifactId, version and the file.
    if (segments.length < 4) continue;
    const [artifactId, version, file] = segments.slice(-3);
    if (fileMatchesCoordinates(file, artifactId, version)) return artifactId;
  }
  return null;
}

function fileMatchesCoordinates(file: string, artifactId: string, version: string): boolean {
  const rest = restAfterPrefix(file, `${artifactId}-${version}`);
  if (rest !== null) return rest === '.jar' || (rest.startsWith('-') && rest.length > '-.jar'.length);
  if (!version.endsWith('-SNAPSHOT')) return false;
  const timestamped = restAfterPrefix(file, `${artifactId}-${version.slice(0, -'SNAPSHOT'.length)}`);
  return timestamped !== null && SNAPSHOT_TIMESTAMP.test(timestamped);
}

function restAfterPrefix(text: string, prefix: string): string | null {
  return text.startsWith(prefix) ? text.slice(prefix.length) : null;
}

/**
 * D3 for Java: the sorted unique artifactIds of the jars the program opened under roots. The JDK's
 * own files, target/classes and anything that is not a jar in repository layout map to nothing.
 */
export function mapJavaTrace(opened: string[], opts: { roots: string[] }): string[] {
  const artifactIds = new Set<string>();
  for (const path of opened) {
    const artifactId = artifactIdOfJar(path, opts.roots);
    if (artifactId !== null) artifactIds.add(artifactId);
  }
  return [...artifactIds].sort();
}
