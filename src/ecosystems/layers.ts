import type { ProjectFiles } from '../domain/files';
import { CPP_BUILD_DIR, JAVA_DEPENDENCY_DIR, MAVEN_REPOSITORY, PROJECT_DIR } from './containerPaths';
import type { Language } from '../domain/instance';
import { parseCMakeConfigureLog } from './cpp/resolve';
import { mapCppBuildTrace, mapCppRuntimeTrace } from './cpp/trace';
import { declaredDependencies } from './declared';
import { parseDependencyList } from './java/resolve';
import { mapJavaTrace } from './java/trace';
import { parseClassLoadLog } from './java/traceClassLoad';
import { packagesWithInstallScripts, parseStraceChdirs } from './javascript/installScripts';
import { parseNpmLs } from './javascript/resolve';
import { mapNodeTrace, parsePackageIndex } from './javascript/trace';
import { diffInstalled, parsePipListJson } from './python/piplist';
import { mapFilesToDistributions, type InstalledDistribution } from './python/record';
import { parseStraceOpenedFiles } from './strace';
import { isBaseRuntimeLibrary, libraryNameOfSharedObject, parseDpkgSearch } from './systemLibraries';

/** The raw artefacts of one execution, by the names the runners give them. */
export type ArtefactTexts = Record<string, string | null | undefined>;

export class MissingArtefactError extends Error {}

/** Which artefacts each layer reads, so that extraction loads (and unzips) only those. */
export const LAYER_ARTEFACTS: Record<'installed' | 'traced' | 'tracedBuild', Record<Language, string[]>> = {
  installed: { python: ['installedBefore', 'installedAfter'], java: ['dependencyList'], javascript: ['npmLs'], cpp: ['configureLog'] },
  traced: {
    python: ['runTrace', 'baselineTrace', 'distributionIndex'],
    java: ['runTrace', 'classLoadLog'],
    javascript: ['runTrace', 'packageIndex'],
    cpp: ['runTrace', 'dpkgOwners'],
  },
  tracedBuild: { python: [], java: ['buildTrace'], javascript: ['buildTrace', 'packageIndex'], cpp: ['configureTrace', 'buildTrace', 'dpkgOwners'] },
};

function need(t: ArtefactTexts, name: string): string {
  const v = t[name];
  if (v == null) throw new MissingArtefactError(`the execution recorded no "${name}"`);
  return v;
}

const opened = (t: ArtefactTexts, ...names: string[]) => names.flatMap((n) => parseStraceOpenedFiles(t[n] ?? ''));

const MAVEN_ROOTS = [JAVA_DEPENDENCY_DIR, MAVEN_REPOSITORY];

/** Resolve(Mk) -> D2, each ecosystem through its package manager's own account. */
export function installedLayer(language: Language, t: ArtefactTexts, files: ProjectFiles): string[] {
  switch (language) {
    case 'python':
      return diffInstalled(parsePipListJson(need(t, 'installedBefore')), parsePipListJson(need(t, 'installedAfter')));
    case 'java':
      return parseDependencyList(need(t, 'dependencyList'));
    case 'javascript':
      return parseNpmLs(need(t, 'npmLs'));
    case 'cpp': {
      // CMake names are normalised as library names; Debian packages from apt.txt keep theirs.
      const declared = declaredDependencies('cpp', files);
      return [...new Set([...parseCMakeConfigureLog(need(t, 'configureLog'), declared.fromManifest), ...declared.fromApt])].sort();
    }
  }
}

/** Trace(Ck) -> D3: what the program opened when it ran, mapped to packages. */
export function tracedLayer(language: Language, t: ArtefactTexts): string[] {
  need(t, 'runTrace');
  switch (language) {
    case 'python': {
      const dists = JSON.parse(need(t, 'distributionIndex')) as InstalledDistribution[];
      return mapFilesToDistributions(opened(t, 'runTrace'), dists, { baselinePaths: opened(t, 'baselineTrace') });
    }
    case 'java':
      // Jars classes were loaded from; a jar the JVM only searched is opened but not used.
      return mapJavaTrace(t.classLoadLog != null ? parseClassLoadLog(t.classLoadLog) : opened(t, 'runTrace'), { roots: MAVEN_ROOTS });
    case 'javascript':
      return mapNodeTrace(opened(t, 'runTrace'), { projectDir: PROJECT_DIR, packageDirs: parsePackageIndex(need(t, 'packageIndex')) });
    case 'cpp':
      return mapCppRuntimeTrace(opened(t, 'runTrace'), { buildDir: CPP_BUILD_DIR });
  }
}

/**
 * The Debian packages that own the shared objects the program loaded (base C/C++ runtime left out),
 * from the `dpkg -S` answers stored with a C++ execution; null where none were asked for.
 */
export function tracedDebianPackagesLayer(language: Language, t: ArtefactTexts): string[] | null {
  if (language !== 'cpp' || t.dpkgOwners == null) return null;
  const owners = dpkgOwnersBothWays(t.dpkgOwners);
  const packages = new Set<string>();
  for (const file of opened(t, 'runTrace')) {
    const lib = libraryNameOfSharedObject(file);
    const owner = owners.get(file);
    if (lib && !isBaseRuntimeLibrary(lib) && owner && !file.startsWith(CPP_BUILD_DIR)) packages.add(owner);
  }
  return [...packages].sort();
}

/** With merged /usr, dpkg records a file under /lib or /usr/lib: answer for both spellings. */
export function dpkgOwnersBothWays(text: string): Map<string, string> {
  const owners = new Map<string, string>();
  for (const [path, pkg] of parseDpkgSearch(text)) {
    owners.set(path, pkg);
    if (path.startsWith('/lib/')) owners.set('/usr' + path, pkg);
    else if (path.startsWith('/usr/lib/')) owners.set(path.slice(4), pkg);
  }
  return owners;
}

/**
 * D3-build, kept apart from D3 so the paper's D3 stays comparable: header and compile-time use
 * seen while building (null for Python, which has no build step here). Java: dependency jars that
 * javac and Maven read, within the resolved closure; JavaScript: packages whose install scripts ran;
 * C++: headers, CMake package files, pkg-config files, FetchContent sources and libraries linked.
 */
export function tracedBuildLayer(language: Language, t: ArtefactTexts, installed: string[]): string[] | null {
  switch (language) {
    case 'python':
      return null;
    case 'java': {
      const closure = new Set(installed);
      return mapJavaTrace(opened(t, 'buildTrace'), { roots: MAVEN_ROOTS }).filter((a) => closure.has(a));
    }
    case 'javascript':
      return packagesWithInstallScripts(parseStraceChdirs(t.buildTrace ?? ''), parsePackageIndex(t.packageIndex ?? ''));
    case 'cpp':
      return mapCppBuildTrace(opened(t, 'configureTrace', 'buildTrace'), { buildDir: CPP_BUILD_DIR, dpkgOwners: dpkgOwnersBothWays(t.dpkgOwners ?? '') });
  }
}
