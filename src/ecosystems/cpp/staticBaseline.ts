import type { StaticBaseline } from '../ecosystem';
import { longestMatchingPrefix } from '../prefixTable';

export interface CppLibrary {
  /** find_package name, or null where the library has no CMake package (linked by name). */
  findPackage: string | null;
  /** What target_link_libraries names. */
  target: string;
  /** Debian package with the headers. */
  debian: string;
}

/** #include path prefixes of common libraries. Longest prefix wins. */
export const CPP_LIBRARIES: Readonly<Record<string, CppLibrary>> = {
  'nlohmann/': { findPackage: 'nlohmann_json', target: 'nlohmann_json::nlohmann_json', debian: 'nlohmann-json3-dev' },
  'fmt/': { findPackage: 'fmt', target: 'fmt::fmt', debian: 'libfmt-dev' },
  'spdlog/': { findPackage: 'spdlog', target: 'spdlog::spdlog', debian: 'libspdlog-dev' },
  'boost/': { findPackage: 'Boost', target: 'Boost::boost', debian: 'libboost-all-dev' },
  'openssl/': { findPackage: 'OpenSSL', target: 'OpenSSL::Crypto OpenSSL::SSL', debian: 'libssl-dev' },
  'curl/': { findPackage: 'CURL', target: 'CURL::libcurl', debian: 'libcurl4-openssl-dev' },
  'sqlite3.h': { findPackage: 'SQLite3', target: 'SQLite::SQLite3', debian: 'libsqlite3-dev' },
  'zlib.h': { findPackage: 'ZLIB', target: 'ZLIB::ZLIB', debian: 'zlib1g-dev' },
  'Eigen/': { findPackage: 'Eigen3', target: 'Eigen3::Eigen', debian: 'libeigen3-dev' },
  'eigen3/': { findPackage: 'Eigen3', target: 'Eigen3::Eigen', debian: 'libeigen3-dev' },
  'gtest/': { findPackage: 'GTest', target: 'GTest::gtest GTest::gtest_main', debian: 'libgtest-dev' },
  'yaml-cpp/': { findPackage: 'yaml-cpp', target: 'yaml-cpp', debian: 'libyaml-cpp-dev' },
  'png.h': { findPackage: 'PNG', target: 'PNG::PNG', debian: 'libpng-dev' },
  'jpeglib.h': { findPackage: 'JPEG', target: 'JPEG::JPEG', debian: 'libjpeg-dev' },
  'bzlib.h': { findPackage: 'BZip2', target: 'BZip2::BZip2', debian: 'libbz2-dev' },
  'lzma.h': { findPackage: 'LibLZMA', target: 'LibLZMA::LibLZMA', debian: 'liblzma-dev' },
  'archive.h': { findPackage: 'LibArchive', target: 'LibArchive::LibArchive', debian: 'libarchive-dev' },
  'pthread.h': { findPackage: 'Threads', target: 'Threads::Threads', debian: 'libc6-dev' },
  'uuid/': { findPackage: null, target: 'uuid', debian: 'uuid-dev' },
  'readline/': { findPackage: null, target: 'readline', debian: 'libreadline-dev' },
  'ncurses.h': { findPackage: 'Curses', target: '${CURSES_LIBRARIES}', debian: 'libncurses-dev' },
  'pqxx/': { findPackage: 'libpqxx', target: 'libpqxx::pqxx', debian: 'libpqxx-dev' },
};

/** The <...> and "..." include paths of a C/C++ source. */
export function cppIncludes(source: string): string[] {
  const found = new Set<string>();
  for (const m of source.matchAll(/^\s*#\s*include\s*[<"]([^>"\n]+)[>"]/gm)) found.add(m[1]!.trim());
  return [...found].sort();
}

/** The library of an include path: a table prefix ending in `/` covers the paths below it, any other only itself. */
export function cppLibrary(include: string): CppLibrary | null {
  return longestMatchingPrefix(CPP_LIBRARIES, (prefix) => (prefix.endsWith('/') ? include.startsWith(prefix) : include === prefix));
}

const SOURCE = /\.(c|cc|cpp|cxx|h|hh|hpp|hxx)$/;
const COMPILED = /\.(c|cc|cpp|cxx)$/;

export function cppLibrariesOf(files: Record<string, string>): CppLibrary[] {
  const own = new Set(Object.keys(files).map((p) => p.split('/').pop()!));
  const out: CppLibrary[] = [];
  for (const [p, content] of Object.entries(files)) {
    if (!SOURCE.test(p)) continue;
    for (const inc of cppIncludes(content)) {
      if (own.has(inc) || own.has(inc.split('/').pop()!) && !inc.includes('/')) continue;
      const lib = cppLibrary(inc);
      if (lib) out.push(lib);
    }
  }
  return out;
}

/** CMakeLists.txt (one executable of every compiled source, find_package per library) and apt.txt. */
export function cppManifest(files: Record<string, string>, libraries: readonly CppLibrary[]): Record<string, string> {
  const byTarget = new Map(libraries.map((l) => [`${l.findPackage ?? ''}|${l.target}`, l]));
  const libs = [...byTarget.values()].sort((a, b) => (a.findPackage ?? a.target).localeCompare(b.findPackage ?? b.target));
  const sources = Object.keys(files).filter((p) => COMPILED.test(p)).sort();
  const packages = [...new Set(libs.map((l) => l.findPackage).filter((n): n is string => n !== null))];
  const lines = [
    'cmake_minimum_required(VERSION 3.22)',
    'project(static_baseline LANGUAGES C CXX)',
    'set(CMAKE_CXX_STANDARD 17)',
    'set(CMAKE_CXX_STANDARD_REQUIRED ON)',
    ...packages.map((n) => `find_package(${n} REQUIRED)`),
    `add_executable(app ${sources.join(' ')})`,
    ...(libs.length > 0 ? [`target_link_libraries(app PRIVATE ${libs.map((l) => l.target).join(' ')})`] : []),
  ];
  const debs = [...new Set(libs.map((l) => l.debian))].filter((d) => d !== 'libc6-dev').sort();
  return { 'CMakeLists.txt': `${lines.join('\n')}\n`, ...(debs.length > 0 ? { 'apt.txt': debs.map((d) => `${d}\n`).join('') } : {}) };
}

export function inferCppManifest(files: Record<string, string>): Record<string, string> {
  return cppManifest(files, cppLibrariesOf(files));
}

const BY_PACKAGE = new Map(Object.values(CPP_LIBRARIES).filter((l) => l.findPackage).map((l) => [l.findPackage!.toLowerCase(), l]));

/** The library a CMake or compiler error names: `provided by "X"`, `Could NOT find X`, `fatal error: x.h: No such file or directory`. */
export function cppMissingFromError(tail: string): CppLibrary | null {
  for (const m of tail.matchAll(/fatal error: ([^:\s]+): No such file or directory/g)) {
    const lib = cppLibrary(m[1]!);
    if (lib) return lib;
  }
  for (const m of tail.matchAll(/(?:provided by "([\w.+-]+)"|Could NOT find ([\w.+-]+))/g)) {
    const lib = BY_PACKAGE.get((m[1] ?? m[2])!.toLowerCase());
    if (lib) return lib;
  }
  return null;
}

/** The libraries a previous static CMakeLists.txt names through find_package or links by name. */
export function cppLibrariesInManifest(cmake: string): CppLibrary[] {
  const out: CppLibrary[] = [];
  for (const m of cmake.matchAll(/find_package\((\S+)/g)) {
    const lib = BY_PACKAGE.get(m[1]!.toLowerCase());
    if (lib) out.push(lib);
  }
  const link = /target_link_libraries\(app PRIVATE ([^)]*)\)/.exec(cmake)?.[1] ?? '';
  for (const lib of Object.values(CPP_LIBRARIES)) if (!lib.findPackage && link.split(' ').includes(lib.target)) out.push(lib);
  return out;
}

const CPP_MANIFEST_FILES = ['CMakeLists.txt', 'apt.txt'];

/** The static baseline for C++: CMakeLists.txt and apt.txt from the includes, and the library a CMake or compiler error names. */
export const CPP_STATIC: StaticBaseline = {
  manifestFiles: CPP_MANIFEST_FILES,
  infer: (code) => inferCppManifest(code),
  repair(previous, errorTail) {
    const lib = cppMissingFromError(errorTail);
    const have = [...cppLibrariesOf(previous), ...cppLibrariesInManifest(previous['CMakeLists.txt'] ?? '')];
    if (!lib || have.includes(lib)) return null;
    const code = Object.fromEntries(Object.entries(previous).filter(([p]) => !CPP_MANIFEST_FILES.includes(p)));
    return { ...code, ...cppManifest(code, [...have, lib]) };
  },
};
