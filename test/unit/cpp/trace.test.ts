import { mapCppBuildTrace, mapCppRuntimeTrace } from '../../../src/ecosystems/cpp/trace';
import { libraryNameOfDebianPackage } from '../../../src/ecosystems/cpp/traceNames';
import { parseStraceOpenedFiles } from '../../../src/ecosystems/strace';
import { parseDpkgSearch } from '../../../src/ecosystems/systemLibraries';

// A real run (bookworm, g++ 12, project moved to /work) of a program linked against a project shared
// library, libcrypto, zlib and SQLite: the loader probes the RPATH, then opens each soname.
const RUN_TRACE = `6107  execve("./build/hasher", ["./build/hasher"], 0x7fff573187a8 /* 35 vars */) = 0
6107  openat(AT_FDCWD, "/work/build/glibc-hwcaps/x86-64-v4/libhelpers.so", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
6107  openat(AT_FDCWD, "/work/build/glibc-hwcaps/x86-64-v3/libhelpers.so", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
6107  openat(AT_FDCWD, "/work/build/glibc-hwcaps/x86-64-v2/libhelpers.so", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
6107  openat(AT_FDCWD, "/work/build/tls/x86_64/x86_64/libhelpers.so", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
6107  openat(AT_FDCWD, "/work/build/tls/x86_64/libhelpers.so", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
6107  openat(AT_FDCWD, "/work/build/tls/x86_64/libhelpers.so", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
6107  openat(AT_FDCWD, "/work/build/tls/libhelpers.so", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
6107  openat(AT_FDCWD, "/work/build/x86_64/x86_64/libhelpers.so", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
6107  openat(AT_FDCWD, "/work/build/x86_64/libhelpers.so", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
6107  openat(AT_FDCWD, "/work/build/x86_64/libhelpers.so", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
6107  openat(AT_FDCWD, "/work/build/libhelpers.so", O_RDONLY|O_CLOEXEC) = 3
6107  openat(AT_FDCWD, "/work/build/libcrypto.so.3", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
6107  openat(AT_FDCWD, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 3
6107  openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libcrypto.so.3", O_RDONLY|O_CLOEXEC) = 3
6107  openat(AT_FDCWD, "/work/build/libz.so.1", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
6107  openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libz.so.1", O_RDONLY|O_CLOEXEC) = 3
6107  openat(AT_FDCWD, "/work/build/libsqlite3.so.0", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
6107  openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libsqlite3.so.0", O_RDONLY|O_CLOEXEC) = 3
6107  openat(AT_FDCWD, "/work/build/libstdc++.so.6", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
6107  openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libstdc++.so.6", O_RDONLY|O_CLOEXEC) = 3
6107  openat(AT_FDCWD, "/work/build/libc.so.6", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
6107  openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libc.so.6", O_RDONLY|O_CLOEXEC) = 3
6107  openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libm.so.6", O_RDONLY|O_CLOEXEC) = 3
6107  openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libgcc_s.so.1", O_RDONLY|O_CLOEXEC) = 3
6107  openat(AT_FDCWD, "/usr/lib/ssl/openssl.cnf", O_RDONLY) = 3
`;

describe('mapCppRuntimeTrace', () => {
  const opened = parseStraceOpenedFiles(RUN_TRACE);

  it('names the shared objects opened, minus the base runtime libraries', () => {
    expect(mapCppRuntimeTrace(opened)).toEqual(['crypto', 'helpers', 'sqlite3', 'z']);
  });

  it('leaves out the project\'s own libraries in buildDir, not FetchContent\'s', () => {
    expect(mapCppRuntimeTrace(opened, { buildDir: '/work/build' })).toEqual(['crypto', 'sqlite3', 'z']);
    expect(mapCppRuntimeTrace(['/work/build/_deps/fmt-build/libfmt.so.10', '/work/build/libcore.so'], { buildDir: '/work/build/' })).toEqual(['fmt']);
  });

  it('leaves out the loader, glibc\'s gconv modules and files that are no shared objects', () => {
    const more = [
      '/lib64/ld-linux-x86-64.so.2',
      '/usr/lib/x86_64-linux-gnu/gconv/UTF-16.so',
      '/usr/lib/x86_64-linux-gnu/gconv/gconv-modules.cache',
      '/lib/x86_64-linux-gnu/libpthread.so.0',
      '/lib/x86_64-linux-gnu/libdl.so.2',
      '/lib/x86_64-linux-gnu/librt.so.1',
      '/usr/lib/x86_64-linux-gnu/libcurl.so.4.8.0',
      '/usr/lib/x86_64-linux-gnu/libfmt.so.9',
      '/usr/share/zoneinfo/UTC',
    ];
    expect(mapCppRuntimeTrace(more)).toEqual(['curl', 'fmt']);
    expect(mapCppRuntimeTrace([])).toEqual([]);
  });
});

// Lines of a real configure and build (`cmake -DFETCHCONTENT_QUIET=OFF -S . -B build`, `cmake --build
// build`) of a project using OpenSSL, zlib, SQLite3 (Find modules), GTest (a config package it never
// links), pkg-config zlib and a FetchContent header-only library; the toolchain's own opens included.
const BUILD_TRACE = `5861  openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libcurl.so.4", O_RDONLY|O_CLOEXEC) = 3
5863  openat(AT_FDCWD, "/usr/lib/x86_64-linux-gnu/gconv/gconv-modules.cache", O_RDONLY) = 3
5868  openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libbfd-2.40-system.so", O_RDONLY|O_CLOEXEC) = 3
5870  openat(AT_FDCWD, "/usr/lib/gcc/x86_64-linux-gnu/12/liblto_plugin.so", O_RDONLY|O_CLOEXEC) = 3
5870  openat(AT_FDCWD, "/usr/lib/gcc/x86_64-linux-gnu/12/libstdc++.so", O_RDONLY) = 8
5870  openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libmvec.so.1", O_RDONLY) = 11
5870  openat(AT_FDCWD, "/usr/lib/gcc/x86_64-linux-gnu/12/libgcc.a", O_RDONLY) = 13
5870  openat(AT_FDCWD, "/usr/lib/x86_64-linux-gnu/libc_nonshared.a", O_RDONLY) = 16
5861  openat(AT_FDCWD, "/work/build/_deps/tinyjson-subbuild/CMakeLists.txt", O_WRONLY|O_CREAT|O_TRUNC, 0600) = 4
5861  openat(AT_FDCWD, "/work/build/_deps/tinyjson-src/CMakeLists.txt", O_RDONLY) = 3
5861  openat(AT_FDCWD, "/usr/share/cmake-3.25/Modules/FindOpenSSL.cmake", O_RDONLY) = 3
5989  openat(AT_FDCWD, "/usr/lib/x86_64-linux-gnu/pkgconfig/openssl.pc", O_RDONLY) = 3
5989  openat(AT_FDCWD, "/usr/lib/x86_64-linux-gnu/pkgconfig/libssl.pc", O_RDONLY) = 3
5989  openat(AT_FDCWD, "/usr/lib/x86_64-linux-gnu/pkgconfig/libcrypto.pc", O_RDONLY) = 3
5861  openat(AT_FDCWD, "/usr/include/openssl/opensslv.h", O_RDONLY) = 3
5861  openat(AT_FDCWD, "/usr/share/cmake-3.25/Modules/FindZLIB.cmake", O_RDONLY) = 3
5861  openat(AT_FDCWD, "/usr/include/zlib.h", O_RDONLY) = 3
5861  openat(AT_FDCWD, "/usr/share/cmake-3.25/Modules/FindSQLite3.cmake", O_RDONLY) = 3
5861  openat(AT_FDCWD, "/usr/include/sqlite3.h", O_RDONLY) = 3
5861  openat(AT_FDCWD, "/usr/lib/x86_64-linux-gnu/cmake/GTest/GTestConfigVersion.cmake", O_RDONLY) = 3
5861  openat(AT_FDCWD, "/usr/lib/x86_64-linux-gnu/cmake/GTest/GTestConfig.cmake", O_RDONLY) = 3
6014  openat(AT_FDCWD, "/usr/include/pthread.h", O_RDONLY|O_NOCTTY) = 4
6014  openat(AT_FDCWD, "/usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h", O_RDONLY|O_NOCTTY) = 4
5861  openat(AT_FDCWD, "/usr/lib/x86_64-linux-gnu/cmake/GTest/GTestTargets.cmake", O_RDONLY) = 3
6023  openat(AT_FDCWD, "/usr/lib/x86_64-linux-gnu/pkgconfig/zlib.pc", O_RDONLY) = 3
5861  openat(AT_FDCWD, "/usr/lib/x86_64-linux-gnu/libcrypto.so", O_RDONLY) = 5
5861  openat(AT_FDCWD, "/usr/lib/x86_64-linux-gnu/libz.so", O_RDONLY) = 5
5861  openat(AT_FDCWD, "/usr/lib/x86_64-linux-gnu/libsqlite3.so", O_RDONLY) = 5
6079  openat(AT_FDCWD, "/usr/bin/../lib/x86_64-linux-gnu/bfd-plugins/libdep.so", O_RDONLY|O_CLOEXEC) = 9
6092  openat(AT_FDCWD, "/work/src/main.cpp", O_RDONLY|O_NOCTTY) = 3
6092  openat(AT_FDCWD, "/usr/include/openssl/sha.h", O_RDONLY|O_NOCTTY) = 4
6092  openat(AT_FDCWD, "/usr/include/x86_64-linux-gnu/openssl/opensslconf.h", O_RDONLY|O_NOCTTY) = 4
6092  openat(AT_FDCWD, "/work/build/_deps/tinyjson-src/include/tiny/json.hpp", O_RDONLY|O_NOCTTY) = 4
6092  openat(AT_FDCWD, "/usr/include/c++/12/iostream", O_RDONLY|O_NOCTTY) = 4
6092  openat(AT_FDCWD, "/usr/include/x86_64-linux-gnu/c++/12/bits/c++config.h", O_RDONLY|O_NOCTTY) = 4
6092  openat(AT_FDCWD, "/usr/include/stdio.h", O_RDONLY|O_NOCTTY) = 4
`;

// `dpkg -S` of those files, as the runner asks (both /lib and /usr/lib spellings; the misses omitted).
const DPKG = `libcurl4:amd64: /usr/lib/x86_64-linux-gnu/libcurl.so.4
libbinutils:amd64: /usr/lib/x86_64-linux-gnu/libbfd-2.40-system.so
gcc-12: /usr/lib/gcc/x86_64-linux-gnu/12/liblto_plugin.so
libstdc++-12-dev:amd64: /usr/lib/gcc/x86_64-linux-gnu/12/libstdc++.so
libc6:amd64: /lib/x86_64-linux-gnu/libmvec.so.1
libgcc-12-dev:amd64: /usr/lib/gcc/x86_64-linux-gnu/12/libgcc.a
libc6-dev:amd64: /usr/lib/x86_64-linux-gnu/libc_nonshared.a
libssl-dev:amd64: /usr/lib/x86_64-linux-gnu/pkgconfig/openssl.pc
libssl-dev:amd64: /usr/lib/x86_64-linux-gnu/pkgconfig/libssl.pc
libssl-dev:amd64: /usr/lib/x86_64-linux-gnu/pkgconfig/libcrypto.pc
libssl-dev:amd64: /usr/include/openssl/opensslv.h
zlib1g-dev:amd64: /usr/include/zlib.h
libsqlite3-dev:amd64: /usr/include/sqlite3.h
libgtest-dev:amd64: /usr/lib/x86_64-linux-gnu/cmake/GTest/GTestConfigVersion.cmake
libgtest-dev:amd64: /usr/lib/x86_64-linux-gnu/cmake/GTest/GTestConfig.cmake
libc6-dev:amd64: /usr/include/pthread.h
libgcc-12-dev:amd64: /usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h
libgtest-dev:amd64: /usr/lib/x86_64-linux-gnu/cmake/GTest/GTestTargets.cmake
zlib1g-dev:amd64: /usr/lib/x86_64-linux-gnu/pkgconfig/zlib.pc
libssl-dev:amd64: /usr/lib/x86_64-linux-gnu/libcrypto.so
zlib1g-dev:amd64: /usr/lib/x86_64-linux-gnu/libz.so
libsqlite3-dev:amd64: /usr/lib/x86_64-linux-gnu/libsqlite3.so
binutils-x86-64-linux-gnu: /usr/lib/x86_64-linux-gnu/bfd-plugins/libdep.so
libssl-dev:amd64: /usr/include/openssl/sha.h
libssl-dev:amd64: /usr/include/x86_64-linux-gnu/openssl/opensslconf.h
libstdc++-12-dev:amd64: /usr/include/c++/12/iostream
libstdc++-12-dev:amd64: /usr/include/x86_64-linux-gnu/c++/12/bits/c++config.h
libc6-dev:amd64: /usr/include/stdio.h
`;

const withBothSpellings = (owners: Map<string, string>) => {
  for (const [path, pkg] of [...owners]) {
    if (path.startsWith('/usr/lib/')) owners.set(path.slice(4), pkg);
    else if (path.startsWith('/lib/')) owners.set(`/usr${path}`, pkg);
  }
  return owners;
};

describe('mapCppBuildTrace', () => {
  const dpkgOwners = withBothSpellings(parseDpkgSearch(DPKG));

  it('names what a real build used: Find-module headers, config packages, pkg-config modules, FetchContent, linked libraries', () => {
    expect(mapCppBuildTrace(parseStraceOpenedFiles(BUILD_TRACE), { buildDir: '/work/build', dpkgOwners })).toEqual([
      'crypto', // libcrypto.so linked, libcrypto.pc
      'gtest', // GTestConfig.cmake read at configure
      'openssl', // headers of libssl-dev, openssl.pc
      'sqlite3', // sqlite3.h of libsqlite3-dev, libsqlite3.so linked
      'ssl', // libssl.pc (FindOpenSSL asks pkg-config)
      'tinyjson', // _deps/tinyjson-src
      'z', // libz.so linked
      'zlib', // zlib.h of zlib1g-dev, zlib.pc
    ]);
  });

  it('lends the CMake name of a config package to the headers of its Debian package', () => {
    const owners = parseDpkgSearch(`libfmt-dev:amd64: /usr/lib/x86_64-linux-gnu/cmake/fmt/fmt-config.cmake
libfmt-dev:amd64: /usr/include/fmt/core.h
nlohmann-json3-dev: /usr/share/cmake/nlohmann_json/nlohmann_jsonConfig.cmake
nlohmann-json3-dev: /usr/include/nlohmann/json.hpp
libboost1.74-dev:amd64: /usr/lib/x86_64-linux-gnu/cmake/Boost-1.74.0/BoostConfig.cmake
libboost1.74-dev:amd64: /usr/lib/x86_64-linux-gnu/cmake/boost_headers-1.74.0/boost_headers-config.cmake
libboost1.74-dev:amd64: /usr/include/boost/algorithm/string.hpp
libeigen3-dev: /usr/share/eigen3/cmake/Eigen3Config.cmake
libeigen3-dev: /usr/include/eigen3/Eigen/Dense
`);
    const opened = [
      '/usr/include/fmt/core.h',
      '/usr/lib/x86_64-linux-gnu/cmake/fmt/fmt-config.cmake',
      '/usr/share/cmake/nlohmann_json/nlohmann_jsonConfig.cmake',
      '/usr/include/nlohmann/json.hpp',
      '/usr/lib/x86_64-linux-gnu/cmake/Boost-1.74.0/BoostConfig.cmake',
      '/usr/lib/x86_64-linux-gnu/cmake/boost_headers-1.74.0/boost_headers-config.cmake',
      '/usr/include/boost/algorithm/string.hpp',
      '/usr/share/eigen3/cmake/Eigen3Config.cmake',
      '/usr/include/eigen3/Eigen/Dense',
    ];
    expect(mapCppBuildTrace(opened, { buildDir: '/work/build', dpkgOwners: owners })).toEqual(['boost', 'boost_headers', 'eigen3', 'fmt', 'nlohmann_json']);
  });

  it('names headers of packages without a config file by their Debian package', () => {
    const owners = parseDpkgSearch(`libspdlog-dev:amd64: /usr/include/spdlog/spdlog.h
libcurl4-openssl-dev:amd64: /usr/include/x86_64-linux-gnu/curl/curl.h
libyaml-cpp-dev:amd64: /usr/include/yaml-cpp/yaml.h
`);
    const opened = ['/usr/include/spdlog/spdlog.h', '/usr/include/x86_64-linux-gnu/curl/curl.h', '/usr/include/yaml-cpp/yaml.h', '/usr/include/unowned.h'];
    expect(mapCppBuildTrace(opened, { buildDir: '/work/build', dpkgOwners: owners })).toEqual(['curl', 'spdlog', 'yaml-cpp']);
  });

  it('takes FetchContent names from -src and -build folders, lower case, never from -subbuild', () => {
    const opened = [
      '/work/build/_deps/googletest-src/googletest/include/gtest/gtest.h',
      '/work/build/_deps/googletest-build/lib/libgtest.a',
      '/work/build/_deps/cli11-subbuild/CMakeLists.txt',
      '/work/build/_deps/Catch2-src/src/catch2/catch_all.hpp',
    ];
    expect(mapCppBuildTrace(opened, { buildDir: '/work/build/', dpkgOwners: new Map() })).toEqual(['catch2', 'googletest']);
  });

  it('skips the project\'s own files, CMake\'s modules and files outside the known places', () => {
    const opened = [
      '/work/CMakeLists.txt',
      '/work/src/main.cpp',
      '/work/build/libcore.a',
      '/work/build/CMakeFiles/3.25.1/CMakeCXXCompiler.cmake',
      '/usr/share/cmake-3.25/Modules/FindCURL.cmake',
      '/usr/lib/x86_64-linux-gnu/cmake',
      '/usr/lib/x86_64-linux-gnu/libpthread.a',
      '/usr/lib/x86_64-linux-gnu/libm-2.36.a',
    ];
    expect(mapCppBuildTrace(opened, { buildDir: '/work/build', dpkgOwners: new Map() })).toEqual([]);
  });

  it('reads vendored static libraries outside buildDir', () => {
    expect(mapCppBuildTrace(['/work/third_party/lib/libtinyxml2.a'], { buildDir: '/work/build', dpkgOwners: new Map() })).toEqual(['tinyxml2']);
  });
});

describe('libraryNameOfDebianPackage', () => {
  it('knows the common development packages whose name differs from the library\'s', () => {
    expect(libraryNameOfDebianPackage('libssl-dev')).toBe('openssl');
    expect(libraryNameOfDebianPackage('zlib1g-dev:amd64')).toBe('zlib');
    expect(libraryNameOfDebianPackage('libcurl4-openssl-dev')).toBe('curl');
    expect(libraryNameOfDebianPackage('libsqlite3-dev')).toBe('sqlite3');
    expect(libraryNameOfDebianPackage('libboost-filesystem1.74-dev')).toBe('boost');
  });

  it('otherwise drops -dev, lib and a trailing soversion', () => {
    expect(libraryNameOfDebianPackage('libfmt-dev')).toBe('fmt');
    expect(libraryNameOfDebianPackage('libspdlog-dev')).toBe('spdlog');
    expect(libraryNameOfDebianPackage('libssl3')).toBe('ssl');
    expect(libraryNameOfDebianPackage('libsqlite3-0')).toBe('sqlite3');
    expect(libraryNameOfDebianPackage('libssh2-1-dev')).toBe('ssh2');
    expect(libraryNameOfDebianPackage('libgtest-dev')).toBe('gtest');
    expect(libraryNameOfDebianPackage('libyaml-cpp-dev')).toBe('yaml-cpp');
    expect(libraryNameOfDebianPackage('libfmt9:amd64')).toBe('fmt');
  });
});
