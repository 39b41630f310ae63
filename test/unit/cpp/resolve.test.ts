import { parseCMakeConfigureLog } from '../../../src/ecosystems/cpp/resolve';

// Real `cmake -DFETCHCONTENT_QUIET=OFF -S . -B build` logs (CMake 3.25.1, bookworm), paths moved to /work.
const COMPILER = `-- The CXX compiler identification is GNU 12.2.0
-- Detecting CXX compiler ABI info
-- Detecting CXX compiler ABI info - done
-- Check for working CXX compiler: /usr/bin/c++ - skipped
-- Detecting CXX compile features
-- Detecting CXX compile features - done
`;
const populate = (name: string, checkout: string) => `-- Populating ${name}
-- Configuring done
-- Generating done
-- Build files have been written to: /work/build/_deps/${name}-subbuild
[ 11%] Creating directories for '${name}-populate'
[ 22%] Performing download step (git clone) for '${name}-populate'
Cloning into '${name}-src'...
done.
${checkout}
[ 33%] Performing update step for '${name}-populate'
[ 44%] No patch step for '${name}-populate'
[ 55%] No configure step for '${name}-populate'
[ 66%] No build step for '${name}-populate'
[ 77%] No install step for '${name}-populate'
[ 88%] No test step for '${name}-populate'
[100%] Completed '${name}-populate'
[100%] Built target ${name}-populate
`;

const HASHER = `${COMPILER}${populate('tinyjson', 'HEAD is now at b0c0a87 init')}-- Found OpenSSL: /usr/lib/x86_64-linux-gnu/libcrypto.so (found version "3.0.19")  
-- Found ZLIB: /usr/lib/x86_64-linux-gnu/libz.so (found version "1.2.13") 
-- Found SQLite3: /usr/include (found version "3.40.1") 
-- Performing Test CMAKE_HAVE_LIBC_PTHREAD
-- Performing Test CMAKE_HAVE_LIBC_PTHREAD - Success
-- Found Threads: TRUE  
-- Found PkgConfig: /usr/bin/pkg-config (found version "1.8.1") 
-- Checking for module 'zlib'
--   Found zlib, version 1.2.13
-- Found GTest: /usr/lib/x86_64-linux-gnu/cmake/GTest/GTestConfig.cmake (found version "1.12.1")  
-- Configuring done
-- Generating done
-- Build files have been written to: /work/build
`;

// A fetched project that fetches another and finds zlib itself; then the project finds OpenMP.
const NESTED = `${COMPILER}${populate('outer', "Already on 'master'\nYour branch is up to date with 'origin/master'.")}${populate('inner', 'HEAD is now at b0c0a87 init')}-- Found ZLIB: /usr/lib/x86_64-linux-gnu/libz.so (found version "1.2.13") 
-- Found OpenMP_CXX: -fopenmp (found version "4.5") 
-- Found OpenMP: TRUE (found version "4.5")  
-- Configuring done
-- Generating done
-- Build files have been written to: /work/build
`;

describe('parseCMakeConfigureLog', () => {
  it('adds what FetchContent populated and what CMake found to the declared names', () => {
    expect(parseCMakeConfigureLog(HASHER, ['tinyjson', 'openssl', 'zlib', 'sqlite3', 'threads', 'pkgconfig', 'gtest'])).toEqual([
      'gtest',
      'openssl',
      'pkgconfig',
      'sqlite3',
      'threads',
      'tinyjson',
      'zlib',
    ]);
  });

  it('finds what D1 does not name: packages found, pkg-config modules, and nested FetchContent populations', () => {
    expect(parseCMakeConfigureLog(HASHER, [])).toEqual(['gtest', 'openssl', 'sqlite3', 'tinyjson', 'zlib']);
    expect(parseCMakeConfigureLog(NESTED, ['outer'])).toEqual(['inner', 'openmp', 'outer', 'zlib']);
  });

  it('reads the sub-build\'s step lines alone (a log cut at the start) and pkg-config modules without lib', () => {
    const log = `[ 11%] Creating directories for 'googletest-populate'
[ 22%] Performing download step (download, verify and extract) for 'googletest-populate'
-- Checking for modules 'libcurl;libxml-2.0'
--   Found libcurl, version 7.88.1
--   Found libxml-2.0, version 2.9.14
`;
    expect(parseCMakeConfigureLog(log, [])).toEqual(['curl', 'googletest', 'xml-2.0']);
  });

  it('normalises declared names and leaves out tools and what CMake did not find', () => {
    const log = `-- Found Git: /usr/bin/git (found version "2.39.5") 
-- Found Python3: /usr/bin/python3.11 (found version "3.11.2") found components: Interpreter 
-- Could NOT find GTest (missing: GTEST_LIBRARY GTEST_INCLUDE_DIR GTEST_MAIN_LIBRARY) 
-- Checking for module 'gtk+-3.0'
--   Package 'gtk+-3.0', required by 'virtual:world', not found
`;
    expect(parseCMakeConfigureLog(log, ['LibXml2', 'CURL', 'nlohmann_json', 'curl'])).toEqual(['curl', 'nlohmann_json', 'xml2']);
    expect(parseCMakeConfigureLog('', [])).toEqual([]);
  });

  it('tolerates CRLF line ends', () => {
    expect(parseCMakeConfigureLog('-- Populating fmt\r\n-- Found ZLIB: /usr/lib/x86_64-linux-gnu/libz.so (found version "1.2.13")\r\n', [])).toEqual(['fmt', 'zlib']);
  });
});
