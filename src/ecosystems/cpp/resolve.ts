import { normalizeLibraryName } from '../systemLibraries';

// FetchContent, with FETCHCONTENT_QUIET off: `-- Populating json`, and the sub-build's steps
// `[ 11%] Creating directories for 'json-populate'`, `Performing download step (git clone) for 'json-populate'`.
const POPULATING = /^-- Populating (\S+)\s*$/gm;
const POPULATE_STEP = /(?:Creating directories|Performing \w+ step(?: \([^)]*\))?|Completed) for '([^']+)-populate'/g;
// find_package_handle_standard_args: `-- Found OpenSSL: /usr/lib/x86_64-linux-gnu/libcrypto.so (found version "3.0.11")`.
const FOUND_PACKAGE = /^-- Found ([\w.+-]+): /gm;
// pkg_check_modules: `--   Found libcurl, version 7.88.1`.
const FOUND_MODULE = /^--\s+Found ([\w.+-]+), version /gm;
// What find_package also reports finding that is a tool or the thread library, not a dependency.
const NOT_DEPENDENCIES = new Set([
  'pkgconfig', 'git', 'threads', 'python', 'python2', 'python3', 'pythoninterp', 'perl', 'doxygen', 'java', 'bison', 'flex',
  'sphinx', 'hg', 'subversion', 'patch', 'unixcommands', 'gnuplot', 'wget', 'dpkg', 'rpmbuild', 'gettext',
]);

/**
 * D2 for C++, from the `cmake -S . -B build` log: the declared names (D1), what FetchContent populated,
 * and the packages and pkg-config modules CMake reports found (tools like PkgConfig and Git, and
 * Threads, are no dependencies; OpenMP_CXX counts as openmp). Sorted unique, lower case, without `lib`.
 * FetchContent prints nothing while FETCHCONTENT_QUIET is on (the default): configure with
 * `-DFETCHCONTENT_QUIET=OFF` for its populations to show here.
 */
export function parseCMakeConfigureLog(log: string, declared: string[]): string[] {
  const names = new Set(declared.map(normalizeLibraryName));
  for (const match of log.matchAll(POPULATING)) names.add(normalizeLibraryName(match[1]));
  for (const match of log.matchAll(POPULATE_STEP)) names.add(normalizeLibraryName(match[1]));
  for (const match of [...log.matchAll(FOUND_PACKAGE), ...log.matchAll(FOUND_MODULE)]) {
    const name = normalizeLibraryName(match[1].replace(/_(?:C|CXX|Fortran)$/, ''));
    if (!NOT_DEPENDENCIES.has(name)) names.add(name);
  }
  return [...names].filter((name) => name !== '').sort();
}
