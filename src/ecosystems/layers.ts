import type { ProjectFiles } from '../domain/files';
import type { Language } from '../domain/instance';
import { extractLayer, type AnyEcosystem, type ArtefactTexts } from './ecosystem';
import { ECOSYSTEMS } from './registry';

export { MissingArtefactError, type ArtefactTexts } from './ecosystem';
export { dpkgOwnersBothWays } from './systemLibraries';

/** Resolve(Mk) -> D2, each ecosystem through its package manager's own account. */
export function installedLayer(language: Language, t: ArtefactTexts, files: ProjectFiles): string[] {
  const ecosystem: AnyEcosystem = ECOSYSTEMS[language];
  return extractLayer(ecosystem.installed, t, files);
}

/** Trace(Ck) -> D3: what the program opened when it ran, mapped to packages. */
export function tracedLayer(language: Language, t: ArtefactTexts): string[] {
  const ecosystem: AnyEcosystem = ECOSYSTEMS[language];
  return extractLayer(ecosystem.traced, t);
}

/**
 * The Debian packages that own the shared objects the program loaded (base C/C++ runtime left out),
 * from the `dpkg -S` answers stored with a C++ execution; null where none were asked for.
 */
export function tracedDebianPackagesLayer(language: Language, t: ArtefactTexts): string[] | null {
  const layer = (ECOSYSTEMS[language] as AnyEcosystem).tracedDebianPackages;
  return layer ? extractLayer(layer, t) : null;
}

/**
 * D3-build, kept apart from D3 so the paper's D3 stays comparable: header and compile-time use
 * seen while building (null for Python, which has no build step here). Java: dependency jars that
 * javac and Maven read, within the resolved closure; JavaScript: packages whose install scripts ran;
 * C++: headers, CMake package files, pkg-config files, FetchContent sources and libraries linked.
 */
export function tracedBuildLayer(language: Language, t: ArtefactTexts, installed: string[]): string[] | null {
  const layer = (ECOSYSTEMS[language] as AnyEcosystem).tracedBuild;
  return layer ? extractLayer(layer, t, installed) : null;
}
