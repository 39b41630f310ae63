import { classifyCppFailure } from '../../../src/ecosystems/cpp/classify';
import { resourceLimitHit } from '../../../src/ecosystems/resourceLimits';

const configure = (output: string) => classifyCppFailure({ step: 'configure', exitCode: 1, timedOut: false, output });
const build = (output: string, projectFiles?: string[]) => classifyCppFailure({ step: 'build', exitCode: 2, timedOut: false, output, projectFiles });
const run = (output: string, exitCode: number | null = 1) => classifyCppFailure({ step: 'run', exitCode, timedOut: false, output });

// Real outputs of CMake 3.25.1, g++ 12.2 and GNU ld 2.40 on bookworm (paths moved to /work).
const COMPILER = `-- The CXX compiler identification is GNU 12.2.0
-- Detecting CXX compiler ABI info
-- Detecting CXX compiler ABI info - done
-- Check for working CXX compiler: /usr/bin/c++ - skipped
-- Detecting CXX compile features
-- Detecting CXX compile features - done
`;
const INCOMPLETE = `

-- Configuring incomplete, errors occurred!
See also "/work/build/CMakeFiles/CMakeOutput.log".
`;
const SUBBUILD_FAILED = (name: string) => `

gmake[2]: *** [CMakeFiles/${name}-populate.dir/build.make:102: ${name}-populate-prefix/src/${name}-populate-stamp/${name}-populate-download] Error 1
gmake[1]: *** [CMakeFiles/Makefile2:83: CMakeFiles/${name}-populate.dir/all] Error 2
gmake: *** [Makefile:91: all] Error 2

CMake Error at /usr/share/cmake-3.25/Modules/FetchContent.cmake:1616 (message):
  Build step for ${name} failed: 2
Call Stack (most recent call first):
  /usr/share/cmake-3.25/Modules/FetchContent.cmake:1756:EVAL:2 (__FetchContent_directPopulate)
  /usr/share/cmake-3.25/Modules/FetchContent.cmake:1756 (cmake_language)
  /usr/share/cmake-3.25/Modules/FetchContent.cmake:1970 (FetchContent_Populate)
  CMakeLists.txt:5 (FetchContent_MakeAvailable)
${INCOMPLETE}`;

const CONFIGURE = {
  noConfigFile: `${COMPILER}CMake Error at CMakeLists.txt:3 (find_package):
  By not providing "Findnlohmann_json.cmake" in CMAKE_MODULE_PATH this
  project has asked CMake to find a package configuration file provided by
  "nlohmann_json", but CMake did not find one.

  Could not find a package configuration file provided by "nlohmann_json"
  (requested version 3.11) with any of the following names:

    nlohmann_jsonConfig.cmake
    nlohmann_json-config.cmake

  Add the installation prefix of "nlohmann_json" to CMAKE_PREFIX_PATH or set
  "nlohmann_json_DIR" to a directory containing one of the above files.  If
  "nlohmann_json" provides a separate development package or SDK, be sure it
  has been installed.
${INCOMPLETE}`,
  findModule: `${COMPILER}CMake Error at /usr/share/cmake-3.25/Modules/FindPackageHandleStandardArgs.cmake:230 (message):
  Could NOT find CURL (missing: CURL_LIBRARY CURL_INCLUDE_DIR)
Call Stack (most recent call first):
  /usr/share/cmake-3.25/Modules/FindPackageHandleStandardArgs.cmake:600 (_FPHSA_FAILURE_MESSAGE)
  /usr/share/cmake-3.25/Modules/FindCURL.cmake:182 (find_package_handle_standard_args)
  CMakeLists.txt:3 (find_package)
${INCOMPLETE}`,
  pkgConfig: `${COMPILER}-- Found PkgConfig: /usr/bin/pkg-config (found version "1.8.1") 
-- Checking for module 'gtk+-3.0'
--   Package 'gtk+-3.0', required by 'virtual:world', not found
CMake Error at /usr/share/cmake-3.25/Modules/FindPkgConfig.cmake:607 (message):
  A required package was not found
Call Stack (most recent call first):
  /usr/share/cmake-3.25/Modules/FindPkgConfig.cmake:829 (_pkg_check_modules_internal)
  CMakeLists.txt:4 (pkg_check_modules)
${INCOMPLETE}`,
  cloneFailed: `${COMPILER}[ 11%] Creating directories for 'json-populate'
[ 22%] Performing download step (git clone) for 'json-populate'
Cloning into 'json-src'...
fatal: unable to access 'https://github.com/nlohmann/json.git/': Could not resolve host: github.com
Cloning into 'json-src'...
fatal: unable to access 'https://github.com/nlohmann/json.git/': Could not resolve host: github.com
Cloning into 'json-src'...
fatal: unable to access 'https://github.com/nlohmann/json.git/': Could not resolve host: github.com
-- Had to git clone more than once: 3 times.
CMake Error at json-subbuild/json-populate-prefix/tmp/json-populate-gitclone.cmake:39 (message):
  Failed to clone repository: 'https://github.com/nlohmann/json.git'
${SUBBUILD_FAILED('json')}`,
  badTag: `${COMPILER}[ 11%] Creating directories for 'tinyjson-populate'
[ 22%] Performing download step (git clone) for 'tinyjson-populate'
Cloning into 'tinyjson-src'...
done.
fatal: invalid reference: v9.9.9
CMake Error at tinyjson-subbuild/tinyjson-populate-prefix/tmp/tinyjson-populate-gitclone.cmake:49 (message):
  Failed to checkout tag: 'v9.9.9'
${SUBBUILD_FAILED('tinyjson')}`,
  url404: `${COMPILER}[ 11%] Creating directories for 'fmt-populate'
[ 22%] Performing download step (download, verify and extract) for 'fmt-populate'
-- Downloading...
   dst='/work/build/_deps/fmt-subbuild/fmt-populate-prefix/src/10.9.9.zip'
   timeout='none'
   inactivity timeout='none'
-- Using src='https://github.com/fmtlib/fmt/archive/refs/tags/10.9.9.zip'
-- [download 0% complete]
CMake Error at fmt-subbuild/fmt-populate-prefix/src/fmt-populate-stamp/download-fmt-populate.cmake:170 (message):
  Each download failed!

    error: downloading 'https://github.com/fmtlib/fmt/archive/refs/tags/10.9.9.zip' failed
          status_code: 22
          status_string: "HTTP response code said error"
          log:
          --- LOG BEGIN ---
          The requested URL returned error: 404

  Closing connection 0

          --- LOG END ---
${SUBBUILD_FAILED('fmt')}`,
  urlNoHost: `[ 22%] Performing download step (download, verify and extract) for 'fmt-populate'
-- Downloading...
-- Using src='https://github.com/fmtlib/fmt/archive/refs/tags/10.2.1.zip'
CMake Error at fmt-subbuild/fmt-populate-prefix/src/fmt-populate-stamp/download-fmt-populate.cmake:170 (message):
  Each download failed!

    error: downloading 'https://github.com/fmtlib/fmt/archive/refs/tags/10.2.1.zip' failed
          status_code: 6
          status_string: "Couldn't resolve host name"
${SUBBUILD_FAILED('fmt')}`,
  hashMismatch: `[ 22%] Performing download step (download, verify and extract) for 'real-populate'
-- Downloading...
-- Using src='https://example.org/real.tar.gz'
-- [download 100% complete]
-- verifying file...
       file='/work/build/_deps/real-subbuild/real-populate-prefix/src/real.tar.gz'
-- SHA256 hash of
    /work/build/_deps/real-subbuild/real-populate-prefix/src/real.tar.gz
  does not match expected value
    expected: '0000000000000000000000000000000000000000000000000000000000000000'
      actual: '3dbbd98c2bf7171cd0078158288b649abeda6425e9f53b3dd91a901217cdff18'
-- Hash mismatch, removing...
CMake Error at real-subbuild/real-populate-prefix/src/real-populate-stamp/download-real-populate.cmake:170 (message):
  Each download failed!
${SUBBUILD_FAILED('real')}`,
  syntax: `${COMPILER}CMake Error at CMakeLists.txt:3:
  Parse error.  Function missing ending ")".  End of file reached.
${INCOMPLETE}`,
  unknownCommand: `CMake Error at CMakeLists.txt:7 (target_link_library):
  Unknown CMake command "target_link_library".
${INCOMPLETE}`,
  optionalMissing: `-- Could NOT find GTest (missing: GTEST_LIBRARY GTEST_INCLUDE_DIR GTEST_MAIN_LIBRARY) 
CMake Error at CMakeLists.txt:9 (add_executable):
  Cannot find source file:

    src/app.cpp
${INCOMPLETE}`,
  notFoundVariable: `CMake Error: The following variables are used in this project, but they are set to NOTFOUND.
Please set them or make sure they are set and tested correctly in the CMake files:
SODIUM_LIBRARY
    linked by target "app" in directory /work
${INCOMPLETE}`,
};

describe('classifyCppFailure: configure', () => {
  it('classes packages CMake could not find as SystemLib', () => {
    expect(configure(CONFIGURE.noConfigFile)).toBe('SystemLib');
    expect(configure(CONFIGURE.findModule)).toBe('SystemLib');
    expect(configure(CONFIGURE.pkgConfig)).toBe('SystemLib');
    expect(configure(CONFIGURE.notFoundVariable)).toBe('SystemLib');
    expect(configure("-- Checking for module 'libfoo'\n--   No package 'libfoo' found\n")).toBe('SystemLib');
  });

  it('classes FetchContent downloads that could not reach their host as FetchFail', () => {
    expect(configure(CONFIGURE.cloneFailed)).toBe('FetchFail');
    expect(configure(CONFIGURE.urlNoHost)).toBe('FetchFail');
    expect(configure("fatal: unable to access 'https://github.com/fmtlib/fmt.git/': SSL certificate problem: self-signed certificate in certificate chain\n")).toBe('FetchFail');
  });

  it('classes a tag, repository or file that does not exist as MissingDep', () => {
    expect(configure(CONFIGURE.badTag)).toBe('MissingDep');
    expect(configure(CONFIGURE.url404)).toBe('MissingDep');
    expect(configure("remote: Repository not found.\nfatal: repository 'https://github.com/someone/nojson.git/' not found\n")).toBe('MissingDep');
  });

  it('classes a hash mismatch, syntax errors and other CMake errors as Build', () => {
    expect(configure(CONFIGURE.hashMismatch)).toBe('Build');
    expect(configure(CONFIGURE.syntax)).toBe('Build');
    expect(configure(CONFIGURE.unknownCommand)).toBe('Build');
    expect(configure(CONFIGURE.optionalMissing)).toBe('Build');
  });
});

const MAKE_FAILED = `gmake[2]: *** [CMakeFiles/app.dir/build.make:76: CMakeFiles/app.dir/src/main.cpp.o] Error 1
gmake[1]: *** [CMakeFiles/Makefile2:83: CMakeFiles/app.dir/all] Error 2
gmake: *** [Makefile:91: all] Error 2
`;
const LINK_FAILED = `collect2: error: ld returned 1 exit status
gmake[2]: *** [CMakeFiles/app.dir/build.make:97: app] Error 1
gmake[1]: *** [CMakeFiles/Makefile2:83: CMakeFiles/app.dir/all] Error 2
gmake: *** [Makefile:91: all] Error 2
`;
const BUILD = {
  systemHeader: `[ 50%] Building CXX object CMakeFiles/app.dir/src/main.cpp.o
/work/src/main.cpp:2:10: fatal error: nlohmann/json.hpp: No such file or directory
    2 | #include <nlohmann/json.hpp>
      |          ^~~~~~~~~~~~~~~~~~~
compilation terminated.
${MAKE_FAILED}`,
  bareSystemHeader: `/work/src/db.cpp:1:10: fatal error: sqlite3.h: No such file or directory
    1 | #include <sqlite3.h>
      |          ^~~~~~~~~~~
compilation terminated.
${MAKE_FAILED}`,
  projectHeader: `[ 50%] Building CXX object CMakeFiles/app.dir/src/main.cpp.o
/work/src/main.cpp:2:10: fatal error: utils.h: No such file or directory
    2 | #include "utils.h"
      |          ^~~~~~~~~
compilation terminated.
${MAKE_FAILED}`,
  missingLibrary: `[ 50%] Building CXX object CMakeFiles/app.dir/src/main.cpp.o
[100%] Linking CXX executable app
/usr/bin/ld: cannot find -lyaml-cpp: No such file or directory
${LINK_FAILED}`,
  undefinedReference: `[ 50%] Building CXX object CMakeFiles/app.dir/src/main.cpp.o
[100%] Linking CXX executable app
/usr/bin/ld: CMakeFiles/app.dir/src/main.cpp.o: in function \`main':
main.cpp:(.text+0x1f): undefined reference to \`SHA256'
${LINK_FAILED}`,
  compileError: `[ 50%] Building CXX object CMakeFiles/app.dir/src/main.cpp.o
/work/src/main.cpp: In function 'int main()':
/work/src/main.cpp:7:5: error: 'cout' is not a member of 'std'
    7 |     std::cout << "hi";
      |     ^~~~
/work/src/main.cpp:2:1: note: 'std::cout' is defined in header '<iostream>'; did you forget to '#include <iostream>'?
${MAKE_FAILED}`,
  importedLibraryGone: `gmake[2]: *** No rule to make target '/usr/lib/x86_64-linux-gnu/libsodium.so', needed by 'app'.  Stop.
gmake[1]: *** [CMakeFiles/Makefile2:83: CMakeFiles/app.dir/all] Error 2
`,
};

describe('classifyCppFailure: build', () => {
  it('classes a header from outside the project that is missing as SystemLib', () => {
    expect(build(BUILD.systemHeader)).toBe('SystemLib');
    expect(build(BUILD.bareSystemHeader)).toBe('SystemLib');
  });

  it('classes the project\'s own missing header as Build', () => {
    expect(build(BUILD.projectHeader)).toBe('Build');
    expect(build(BUILD.bareSystemHeader, ['CMakeLists.txt', 'src/db.cpp', 'include/sqlite3.h'])).toBe('Build');
    expect(build(BUILD.systemHeader, ['CMakeLists.txt', 'src/main.cpp'])).toBe('SystemLib');
  });

  it('classes a library the linker cannot find as SystemLib, an undefined reference as Build', () => {
    expect(build(BUILD.missingLibrary)).toBe('SystemLib');
    expect(build(BUILD.importedLibraryGone)).toBe('SystemLib');
    expect(build(BUILD.undefinedReference)).toBe('Build');
  });

  it('classes other compile errors as Build', () => {
    expect(build(BUILD.compileError)).toBe('Build');
    expect(build('')).toBe('Build');
  });
});

describe('classifyCppFailure: run', () => {
  it('classes a shared library that does not load as SystemLib', () => {
    expect(run('./build/hasher: error while loading shared libraries: libhelpers.so: cannot open shared object file: No such file or directory\n', 127)).toBe('SystemLib');
    expect(run("./build/app: /lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.32' not found (required by ./build/app)\n")).toBe('SystemLib');
  });

  it('classes a system program the code runs that is not installed as SystemLib', () => {
    expect(run('Scanning 192.168.1.0/24...\nsh: 1: nmap: not found\nscan failed: exit status 127\n')).toBe('SystemLib');
    expect(run('bash: line 1: ffmpeg: command not found\nerror: could not convert input.mp4\n')).toBe('SystemLib');
    expect(run('sh: 1: ./tools/gen.sh: not found\n')).toBe('Runtime');
  });

  it('classes what the machine cannot give as Environment, before its own rules', () => {
    expect(run('Fetching https://api.coingecko.com/api/v3/ping\ncurl_easy_perform() failed: Could not resolve host: api.coingecko.com\n')).toBe('Environment');
    expect(run("terminate called after throwing an instance of 'sw::redis::IoError'\n  what():  Failed to connect to Redis (127.0.0.1:6379): Connection refused\n", 134)).toBe('Environment');
  });

  it('classes crashes, aborts and out of memory as Runtime', () => {
    expect(run("terminate called after throwing an instance of 'std::out_of_range'\n  what():  vector::_M_range_check: __n (which is 3) >= this->size() (which is 0)\n", 134)).toBe('Runtime');
    expect(run('', 139)).toBe('Runtime');
    expect(run("terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc\n", 134)).toBe('Runtime');
    expect(run('', 137)).toBe('Runtime');
  });
});

describe('classifyCppFailure: system and timeouts', () => {
  it('classes apt-get failures as apt failures are', () => {
    const system = (output: string) => classifyCppFailure({ step: 'system', exitCode: 100, timedOut: false, output });
    expect(system("E: Unable to locate package libnlohmann-json-dev\n")).toBe('MissingDep');
    expect(system('E: Failed to fetch http://deb.debian.org/debian/pool/main/c/curl/libcurl4-openssl-dev_7.88.1-10+deb12u5_amd64.deb  Connection timed out\n')).toBe('FetchFail');
  });

  it('classes any timed-out step as Timeout', () => {
    for (const step of ['system', 'configure', 'build', 'run'] as const) {
      expect(classifyCppFailure({ step, exitCode: null, timedOut: true, output: CONFIGURE.cloneFailed })).toBe('Timeout');
    }
  });
});

// g++ 12 in the cpp image: fork() in a loop at --pids-limit 30, perror("fork").
const FORK_LIMIT = 'fork: Resource temporarily unavailable\n';

describe('resource limits (src/ecosystems/resourceLimits.ts, classed before these rules)', () => {
  it('a fork refused at the pids limit is PidsLimit from the output alone, where no counters came back', () => {
    expect(resourceLimitHit({ exitCode: 1, timedOut: false, output: FORK_LIMIT }, { memory_mb: 1024, pids: 30 })?.errorClass).toBe('PidsLimit');
  });

  it('a compiler killed for memory in the build step is MemoryLimit by the counters, Build without them', () => {
    const killed = 'c++: fatal error: Killed signal terminated program cc1plus\ncompilation terminated.\ngmake[2]: *** [CMakeFiles/app.dir/build.make:76: CMakeFiles/app.dir/main.cpp.o] Error 1\n';
    const c = { oomKills: 0, memoryFailcnt: 0, memoryPeakBytes: 1, memoryLimitBytes: 2, pidsLimitHits: 0 };
    const counters = { before: c, after: { ...c, oomKills: 1 } };
    expect(resourceLimitHit({ exitCode: 2, timedOut: false, output: killed, counters }, { memory_mb: 1024, pids: 64 }, 'the build step')?.errorClass).toBe('MemoryLimit');
    expect(classifyCppFailure({ step: 'build', exitCode: 2, timedOut: false, output: killed })).toBe('Build');
  });
});
