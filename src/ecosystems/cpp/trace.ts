import { normalizePosixPath } from '../posixPath';
import { isBaseRuntimeLibrary, libraryNameOfSharedObject, libraryNameOfStaticArchive } from '../systemLibraries';
import { cmakePackageOfFile, isToolchainLibrary, isToolchainPackage, isToolchainPath, libraryNameOfDebianPackage, pkgConfigModuleOfFile } from './traceNames';

// glibc's character set converters, loaded by iconv on demand: part of the C library.
const GCONV_MODULE = /\/gconv\//;
// Linked into every program by the compiler driver, alongside the base runtime libraries.
const LINKER_INTERNAL = new Set(['c_nonshared', 'gcc', 'gcc_eh', 'ssp_nonshared']);

/**
 * D3 for C++: the libraries of the shared objects the program opened, minus the base runtime
 * libraries (c, stdc++, m, gcc_s, pthread, dl, rt and the dynamic loader) and glibc's gconv modules.
 * With buildDir, the project's own shared libraries (under buildDir, outside `_deps`) are left out
 * too. Sorted unique lower case, without `lib` and `.so*`.
 */
export function mapCppRuntimeTrace(opened: string[], opts: { buildDir?: string } = {}): string[] {
  const names = new Set<string>();
  for (const raw of opened) {
    const path = normalizePosixPath(raw);
    if (GCONV_MODULE.test(path)) continue;
    if (opts.buildDir !== undefined && isProjectBuildOutput(path, opts.buildDir)) continue;
    const name = libraryNameOfSharedObject(path);
    if (name !== null && !isBaseRuntimeLibrary(name)) names.add(name);
  }
  return [...names].sort();
}

export interface CppBuildTraceOptions {
  /** CMake's build folder; FetchContent sources are in its `_deps`. */
  buildDir: string;
  /** Path -> owning Debian package, from parseDpkgSearch. */
  dpkgOwners: Map<string, string>;
}

/**
 * D3-build for C++: what configuring and building used, from the files they opened.
 * - FetchContent: a file under `<buildDir>/_deps/<name>-src|-build/` -> `<name>`.
 * - CMake config-mode package files (`/usr/lib[/<triplet>]/cmake/<Name>/`, `/usr/share/cmake/<Name>/`,
 *   `/usr/share/<name>/cmake/`) -> the package name; the Debian package owning the file then lends
 *   that name to its headers.
 * - pkg-config `.pc` files -> the module name.
 * - Headers under /usr/include, except the C and C++ standard libraries and the compiler's -> their
 *   Debian package's CMake name when a config file of it was read, else libraryNameOfDebianPackage.
 *   A header no package owns counts for nothing.
 * - Libraries the linker read: `lib*.a`, and `lib*.so` without a version (the dynamic loader opens
 *   versioned sonames, so this leaves out the tools' own libraries) -> the library name, minus the
 *   base runtime libraries, the toolchain's (binutils, its plugins) and the project's own in buildDir.
 * Sorted unique lower case, without a `lib` prefix. A FetchContent download writes every file of its
 * sources, so each dependency populated at configure counts even when the program never includes it.
 */
export function mapCppBuildTrace(opened: string[], opts: CppBuildTraceOptions): string[] {
  const buildDir = normalizePosixPath(opts.buildDir);
  const names = new Set<string>();
  const cmakeNamesOfPackage = new Map<string, Set<string>>();
  const headerPackages = new Set<string>();

  for (const raw of opened) {
    const path = normalizePosixPath(raw);
    const fetched = fetchContentName(path, buildDir);
    if (fetched !== null) {
      names.add(fetched);
      continue;
    }
    const owner = opts.dpkgOwners.get(path);
    const cmakeName = cmakePackageOfFile(path);
    if (cmakeName !== null) {
      names.add(cmakeName);
      if (owner !== undefined) addTo(cmakeNamesOfPackage, owner, cmakeName);
      continue;
    }
    const pkgConfigName = pkgConfigModuleOfFile(path);
    if (pkgConfigName !== null) {
      names.add(pkgConfigName);
      continue;
    }
    if (owner !== undefined && isToolchainPackage(owner)) continue;
    if (path.startsWith('/usr/include/')) {
      if (owner !== undefined && !isToolchainPath(path)) headerPackages.add(owner);
      continue;
    }
    const linked = linkedLibraryName(path, buildDir);
    if (linked !== null) names.add(linked);
  }

  for (const pkg of headerPackages) {
    const cmakeNames = [...(cmakeNamesOfPackage.get(pkg) ?? [])].sort((a, b) => a.length - b.length || a.localeCompare(b));
    names.add(cmakeNames[0] ?? libraryNameOfDebianPackage(pkg));
  }
  return [...names].sort();
}

function fetchContentName(path: string, buildDir: string): string | null {
  const prefix = `${buildDir}/_deps/`;
  if (!path.startsWith(prefix)) return null;
  const match = /^([^/]+)-(?:src|build)\//.exec(path.slice(prefix.length));
  return match ? match[1].toLowerCase() : null;
}

function linkedLibraryName(path: string, buildDir: string): string | null {
  if (isToolchainPath(path) || isProjectBuildOutput(path, buildDir)) return null;
  const file = path.slice(path.lastIndexOf('/') + 1);
  const name = /^lib[^/]+\.so$/.test(file) ? libraryNameOfSharedObject(path) : libraryNameOfStaticArchive(path);
  if (name === null || LINKER_INTERNAL.has(name) || isToolchainLibrary(name)) return null;
  return isBaseRuntimeLibrary(name.replace(/-\d+(?:\.\d+)*$/, '')) ? null : name;
}

/** The project's own outputs: in buildDir but not a FetchContent dependency's. */
function isProjectBuildOutput(path: string, buildDir: string): boolean {
  const root = normalizePosixPath(buildDir);
  return path.startsWith(`${root}/`) && !path.startsWith(`${root}/_deps/`);
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key) ?? new Set<string>();
  set.add(value);
  map.set(key, set);
}
