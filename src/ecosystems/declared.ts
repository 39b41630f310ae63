import type { Language } from '../domain/instance';
import { parseAptTxt } from './apt';
import { parseCMakeLists } from './cpp/manifest';
import { parsePom } from './java/manifest';
import { parsePackageJson } from './javascript/manifest';
import { ManifestError } from './manifestError';
import { MANIFEST_FILE } from './manifestFiles';
import { normalizePosixPath } from './python/posixPath';
import { parseRequirements } from './python/requirements';

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
}

/**
 * ParseManifest(M0) -> D1 of a whole project (relative path -> content). Python: requirements.txt
 * names, PEP 503 normalised, `-r` files followed; Java: the artifactIds of pom.xml `<dependencies>`,
 * all scopes; JavaScript: the keys of package.json `dependencies` only; C++: every package named by
 * find_package, FetchContent_Declare or pkg-config in CMakeLists.txt and the files it includes,
 * normalised. For every language the Debian packages of a top-level apt.txt are declared
 * dependencies too (the agent asked for them to be installed), added under their Debian names.
 * Any ManifestError, in either file, makes the names empty and the problem its message.
 */
export function declaredDependencies(language: Language, files: Record<string, string>): DeclaredDependencies {
  const read = (path: string): string | undefined => {
    const key = normalizePosixPath(path);
    return Object.prototype.hasOwnProperty.call(files, key) && typeof files[key] === 'string' ? files[key] : undefined;
  };
  const manifestName = MANIFEST_FILE[language];
  const manifest = read(manifestName);
  const apt = read('apt.txt');
  if (manifest === undefined && apt === undefined) return { names: [], fromManifest: [], fromApt: [], manifestFound: false, problem: null };
  try {
    const fromManifest = manifest === undefined ? [] : manifestNames(language, manifest, manifestName, read);
    const fromApt = apt === undefined ? [] : parseAptTxt(apt, { fileName: 'apt.txt' });
    return { names: [...new Set([...fromManifest, ...fromApt])].sort(), fromManifest, fromApt, manifestFound: true, problem: null };
  } catch (err) {
    if (err instanceof ManifestError) return { names: [], fromManifest: [], fromApt: [], manifestFound: true, problem: err.message };
    throw err;
  }
}

function manifestNames(language: Language, text: string, fileName: string, read: (path: string) => string | undefined): string[] {
  switch (language) {
    case 'python':
      return parseRequirements(text, { fileName, readInclude: read }).dependencies.map((d) => d.name);
    case 'java':
      return parsePom(text, { fileName }).dependencies.map((d) => d.name);
    case 'javascript':
      return parsePackageJson(text, { fileName }).dependencies.map((d) => d.name);
    case 'cpp':
      return parseCMakeLists(text, { fileName, readInclude: read }).dependencies.map((d) => d.name);
  }
}
