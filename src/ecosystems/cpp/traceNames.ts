import { normalizeLibraryName } from '../systemLibraries';

// `<prefix>/(lib|lib64|share)[/<triplet>]/cmake/<Name>/.../*.cmake`, the search paths of find_package in
// config mode; only .cmake files, as CMake lists folders of packages it does not load.
const CMAKE_PACKAGE_FILE = /^\/usr(?:\/local)?\/(?:lib|lib64|share)(?:\/[\w-]+-linux-gnu\w*)?\/cmake\/([^/]+)\/(?:[^/]+\/)*[^/]+\.cmake$/;
// `<prefix>/share/<name>/cmake/*.cmake`, where some packages keep theirs (Eigen3).
const SHARE_CMAKE_FILE = /^\/usr(?:\/local)?\/share\/([^/]+)\/cmake\/(?:[^/]+\/)*[^/]+\.cmake$/;
const PKG_CONFIG_FILE = /^\/usr(?:\/local)?\/(?:lib|lib64|share)(?:\/[\w-]+-linux-gnu\w*)?\/pkgconfig\/([^/]+)\.pc$/;

/** The package a CMake config-mode file belongs to, `Boost-1.74.0` -> `boost`; null for other files. */
export function cmakePackageOfFile(path: string): string | null {
  const name = CMAKE_PACKAGE_FILE.exec(path)?.[1] ?? SHARE_CMAKE_FILE.exec(path)?.[1];
  return name === undefined ? null : normalizeLibraryName(name.replace(/-\d+(?:\.\d+)*$/, ''));
}

/** `/usr/lib/x86_64-linux-gnu/pkgconfig/libcurl.pc` -> `curl`; null for other files. */
export function pkgConfigModuleOfFile(path: string): string | null {
  const module = PKG_CONFIG_FILE.exec(path)?.[1];
  return module === undefined ? null : normalizeLibraryName(module);
}

// Debian development packages whose library name differs from what the generic rule makes of the
// package name, as find_package would call them.
const DEBIAN_PACKAGE_NAMES: Record<string, string> = {
  'libssl-dev': 'openssl',
  'zlib1g-dev': 'zlib',
  'libcurl4-openssl-dev': 'curl',
  'libcurl4-gnutls-dev': 'curl',
  'libcurl4-nss-dev': 'curl',
  'libsqlite3-dev': 'sqlite3',
  'libeigen3-dev': 'eigen3',
  'nlohmann-json3-dev': 'nlohmann_json',
  'libx11-dev': 'x11',
  'libjpeg62-turbo-dev': 'jpeg',
  'libjpeg-dev': 'jpeg',
  'libbz2-dev': 'bzip2',
  'libxml2-dev': 'xml2',
  'libsdl2-dev': 'sdl2',
  'libglfw3-dev': 'glfw3',
  'libgl-dev': 'opengl',
  'libgl1-mesa-dev': 'opengl',
  'libcli11-dev': 'cli11',
  'catch2': 'catch2',
  'libpcre2-dev': 'pcre2',
  'libhdf5-dev': 'hdf5',
  'libgoogle-glog-dev': 'glog',
  'libpq-dev': 'postgresql',
  'libuv1-dev': 'uv',
  'libncurses-dev': 'curses',
};

/**
 * A library name for a Debian package: the known name of a common development package, else the
 * package name without `:arch`, `-dev`, a leading `lib` and a trailing soversion (`libfmt-dev` -> `fmt`,
 * `libboost1.74-dev` -> `boost`, `libssl3` -> `ssl`, `libsqlite3-0` -> `sqlite3`).
 */
export function libraryNameOfDebianPackage(pkg: string): string {
  const name = pkg.replace(/:.*$/, '').toLowerCase();
  if (name in DEBIAN_PACKAGE_NAMES) return DEBIAN_PACKAGE_NAMES[name];
  if (/^libboost.*-dev$/.test(name)) return 'boost';
  const stem = normalizeLibraryName(name.replace(/-dev$/, ''));
  const withoutVersion = /-\d[\d.]*$/.test(stem) ? stem.replace(/-\d[\d.]*$/, '') : stem.replace(/([a-z])\d[\d.]*$/, '$1');
  return withoutVersion === '' ? stem : withoutVersion;
}

// The C and C++ standard libraries, the compiler's and the binutils' own files: every build reads them.
const TOOLCHAIN_PACKAGE =
  /^(?:libc6(?:-dev)?|libc-dev-bin|linux-libc-dev|libcrypt-dev|libnsl-dev|libtirpc-dev|libstdc\+\+-\d+-dev|libgcc-\d+-dev|libgcc-s1|(?:gcc|g\+\+|cpp)(?:-\d+)?|libbinutils|binutils(?:-[\w-]+)?|libctf(?:-nobfd)?\d*|libsframe\d*)$/;
const TOOLCHAIN_PATH = /^\/usr\/(?:include\/(?:[\w-]+-linux-gnu\w*\/)?c\+\+\/|lib\/gcc\/|libexec\/|lib\/(?:[\w-]+-linux-gnu\w*\/)?bfd-plugins\/)/;
// The binutils' libraries carry their version in the name, so the loader opens them unversioned.
const TOOLCHAIN_LIBRARY = /^(?:bfd|opcodes)-\d/;

export function isToolchainPackage(pkg: string): boolean {
  return TOOLCHAIN_PACKAGE.test(pkg.replace(/:.*$/, ''));
}

export function isToolchainPath(path: string): boolean {
  return TOOLCHAIN_PATH.test(path);
}

export function isToolchainLibrary(name: string): boolean {
  return TOOLCHAIN_LIBRARY.test(name);
}
