import { isBinaryContent } from '../domain/files';
import type { ManifestStatus } from '../domain/instance';
import { parseAptTxt } from './apt';
import type { AnyEcosystem } from './ecosystem';
import { ManifestError } from './manifestError';
import { normalizePosixPath } from './posixPath';

export interface DeclaredDependencies {
  /** Sorted, without repeats: the manifest's names and the apt.txt packages together. */
  names: string[];
  /** The language manifest's names alone, and the Debian packages of apt.txt alone. */
  fromManifest: string[];
  fromApt: string[];
  /** Whether the language's manifest or an apt.txt is there at all. */
  manifestFound: boolean;
  /** Why the manifest declares nothing although present: the ManifestError message. */
  problem: string | null;
  /**
   * The language's manifest as found: `absent`, `empty` (there, declaring nothing), `invalid` (it, or
   * apt.txt, could not be parsed: see `problem`) or `present` (declaring at least one dependency).
   */
  manifestStatus: ManifestStatus;
  /**
   * The manifest's test-scoped names (Maven `<scope>test</scope>`): in D1 as the paper reads it, but
   * never traceable in a run, so listed apart for metrics that leave them out.
   */
  testScoped: string[];
}


/**
 * D1 of a whole project (relative path -> content) through one ecosystem's manifest parser, with the
 * Debian packages of a top-level apt.txt added under their Debian names. Any ManifestError, in
 * either file, makes the names empty and the problem its message. Takes the record rather than the
 * language so that a record may use it without importing the registry.
 */
export function declaredOf(ecosystem: Pick<AnyEcosystem, 'manifestFile' | 'parseManifest'>, files: Record<string, string>): DeclaredDependencies {
  // Includes name files of the project map only: never a path outside it, even if the map held one.
  const read = (path: string): string | undefined => {
    const key = normalizePosixPath(path);
    if (key.startsWith('/') || key === '..' || key.startsWith('../')) return undefined;
    return Object.prototype.hasOwnProperty.call(files, key) && typeof files[key] === 'string' ? files[key] : undefined;
  };
  // A binary file (domain/files.ts) is no text to parse: an included file that is binary is not there,
  // and a manifest or apt.txt that is binary is invalid, with a ManifestError saying so.
  const readInclude = (path: string): string | undefined => {
    const text = read(path);
    return text === undefined || isBinaryContent(text) ? undefined : text;
  };
  const fileName = ecosystem.manifestFile;
  const manifest = read(fileName);
  const apt = read('apt.txt');
  if (manifest === undefined && apt === undefined) return { names: [], fromManifest: [], fromApt: [], manifestFound: false, problem: null, manifestStatus: 'absent', testScoped: [] };
  try {
    if (manifest !== undefined && isBinaryContent(manifest)) throw new ManifestError(fileName, null, 'a binary file (not UTF-8 text, or holding NUL bytes), not a manifest');
    if (apt !== undefined && isBinaryContent(apt)) throw new ManifestError('apt.txt', null, 'a binary file (not UTF-8 text, or holding NUL bytes), not a list of packages');
    const parsed = manifest === undefined ? [] : ecosystem.parseManifest(manifest, { fileName, readInclude }).dependencies;
    const fromManifest = parsed.map((d) => d.name);
    const testScoped = [...new Set(parsed.filter((d) => d.scope === 'test').map((d) => d.name))].sort();
    const fromApt = apt === undefined ? [] : parseAptTxt(apt, { fileName: 'apt.txt' });
    const manifestStatus = manifest === undefined ? 'absent' : fromManifest.length === 0 ? 'empty' : 'present';
    return { names: [...new Set([...fromManifest, ...fromApt])].sort(), fromManifest, fromApt, manifestFound: true, problem: null, manifestStatus, testScoped };
  } catch (err) {
    if (err instanceof ManifestError) return { names: [], fromManifest: [], fromApt: [], manifestFound: true, problem: err.message, manifestStatus: 'invalid', testScoped: [] };
    throw err;
  }
}
