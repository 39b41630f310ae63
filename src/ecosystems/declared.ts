import type { Language } from '../domain/instance';
import { declaredOf, type DeclaredDependencies } from './projectManifest';
import { ECOSYSTEMS } from './registry';

export type { DeclaredDependencies } from './projectManifest';

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
  return declaredOf(ECOSYSTEMS[language], files);
}
