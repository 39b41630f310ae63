import * as fs from 'node:fs';
import * as path from 'node:path';
import { CppDependency, normalizeCppName, parseCMakeLists } from '../../../src/ecosystems/cpp/manifest';
import { manifestError } from '../../helpers/manifestError';

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, '../../fixtures/manifests/cpp', name), 'utf8');
const parse = (text: string, files: Record<string, string> = {}, fileName = 'CMakeLists.txt') =>
  parseCMakeLists(text, { fileName, readInclude: (p) => files[p] });
const names = (text: string, files: Record<string, string> = {}, fileName = 'CMakeLists.txt') =>
  parse(text, files, fileName).dependencies.map((d) => d.name);
const only = (text: string): CppDependency => {
  const { dependencies } = parse(text);
  expect(dependencies).toHaveLength(1);
  return dependencies[0];
};

describe('parseCMakeLists: realistic projects', () => {
  it('reads FetchContent by URL and by git, and GTest inside if(BUILD_TESTING)', () => {
    const { dependencies, warnings } = parse(fixture('fetchcontent.CMakeLists.txt'));
    expect(dependencies).toEqual([
      { name: 'json', rawName: 'json', kind: 'FetchContent', components: [], optionalComponents: [], required: true, source: { file: 'CMakeLists.txt', line: 9 } },
      { name: 'fmt', rawName: 'fmt', kind: 'FetchContent', components: [], optionalComponents: [], required: true, source: { file: 'CMakeLists.txt', line: 13 } },
      { name: 'gtest', rawName: 'GTest', kind: 'find_package', components: [], optionalComponents: [], required: true, source: { file: 'CMakeLists.txt', line: 26 } },
    ]);
    expect(warnings).toEqual([]);
  });

  it('reads system libraries, components across lines, pkg-config modules, and nothing commented out', () => {
    const { dependencies, warnings } = parse(fixture('system-libs.CMakeLists.txt'));
    expect(dependencies.map((d) => [d.name, d.kind, d.components, d.required])).toEqual([
      ['openssl', 'find_package', ['SSL', 'Crypto'], true],
      ['curl', 'find_package', [], true],
      ['sqlite3', 'find_package', [], true],
      ['zlib', 'find_package', [], true],
      ['boost', 'find_package', ['system', 'filesystem', 'program_options'], true],
      ['threads', 'find_package', [], true],
      ['nlohmann_json', 'find_package', [], true],
      ['pkgconfig', 'find_package', [], true],
      ['xml-2.0', 'pkg_search_module', [], true],
      ['xml2', 'pkg_search_module', [], true],
    ]);
    expect(dependencies.map((d) => d.name)).not.toContain('qt5');
    expect(dependencies.map((d) => d.name)).not.toContain('protobuf');
    expect(warnings).toEqual([]);
  });

  it('follows include() relative to the source directory and add_subdirectory(), skipping CMake modules quietly', () => {
    const files = {
      'cmake/deps.cmake': 'find_package(fmt CONFIG REQUIRED)\ninclude(${CMAKE_CURRENT_LIST_DIR}/more.cmake)\n',
      'cmake/more.cmake': 'find_package(spdlog REQUIRED)\n',
      'src/CMakeLists.txt': 'find_package(CURL REQUIRED)\nadd_subdirectory(util)\n',
      'src/util/CMakeLists.txt': 'pkg_check_modules(UV REQUIRED libuv)\n',
    };
    const text = [
      'cmake_minimum_required(VERSION 3.20)',
      'project(app)',
      'include(FetchContent)',
      'include(CTest)',
      'include(GNUInstallDirs)',
      'include(${CMAKE_CURRENT_SOURCE_DIR}/cmake/deps.cmake)',
      'add_subdirectory(src)',
    ].join('\n');
    const { dependencies, warnings } = parse(text, files);
    expect(dependencies.map((d) => [d.name, d.source.file, d.source.line])).toEqual([
      ['fmt', 'cmake/deps.cmake', 1],
      ['spdlog', 'cmake/more.cmake', 1],
      ['curl', 'src/CMakeLists.txt', 1],
      ['uv', 'src/util/CMakeLists.txt', 1],
    ]);
    expect(warnings).toEqual([]);
  });

  it('does not join an absolute directory variable to the current directory again', () => {
    const files = {
      'src/CMakeLists.txt': 'include(${CMAKE_CURRENT_SOURCE_DIR}/deps.cmake)\ninclude(${CMAKE_SOURCE_DIR}/cmake/common.cmake)\ninclude(${PROJECT_SOURCE_DIR}/cmake/x.cmake)\n',
      'src/deps.cmake': 'find_package(ZLIB)\n',
      'cmake/common.cmake': 'find_package(PNG)\n',
      'cmake/x.cmake': 'find_package(JPEG)\n',
    };
    const { dependencies, warnings } = parse('project(p)\nadd_subdirectory(${CMAKE_CURRENT_SOURCE_DIR}/src)\n', files);
    expect(dependencies.map((d) => [d.name, d.source.file])).toEqual([['zlib', 'src/deps.cmake'], ['png', 'cmake/common.cmake'], ['jpeg', 'cmake/x.cmake']]);
    expect(warnings).toEqual([]);
  });

  it('finds a module in CMAKE_MODULE_PATH', () => {
    const files = { 'cmake/Dependencies.cmake': 'find_package(Eigen3 3.3 REQUIRED NO_MODULE)\n' };
    const text = 'list(APPEND CMAKE_MODULE_PATH "${CMAKE_SOURCE_DIR}/cmake")\ninclude(Dependencies)\n';
    expect(names(text, files)).toEqual(['eigen3']);
  });

  it('resolves includes against the directory of the top file', () => {
    const files = { 'proj/cmake/deps.cmake': 'find_package(ZLIB)\n', 'proj/lib/CMakeLists.txt': 'find_package(PNG)\n' };
    expect(names('include(cmake/deps.cmake)\nadd_subdirectory(lib)\n', files, 'proj/CMakeLists.txt')).toEqual(['zlib', 'png']);
  });

  it('falls back to the including file\'s directory for a relative include', () => {
    const files = { 'cmake/a.cmake': 'include(b.cmake)\n', 'cmake/b.cmake': 'find_package(GLEW)\n' };
    expect(names('include(cmake/a.cmake)\n', files)).toEqual(['glew']);
  });

  it('warns about a missing include or subdirectory, unless OPTIONAL', () => {
    const { dependencies, warnings } = parse('find_package(fmt)\ninclude(cmake/gone.cmake)\ninclude(cmake/opt.cmake OPTIONAL)\nadd_subdirectory(third_party/json)\n');
    expect(dependencies.map((d) => d.name)).toEqual(['fmt']);
    expect(warnings).toEqual([
      'CMakeLists.txt:2: include(cmake/gone.cmake): file not found; its dependencies are not counted',
      'CMakeLists.txt:4: add_subdirectory(third_party/json): third_party/json/CMakeLists.txt not found; its dependencies are not counted',
    ]);
  });

  it('stops at an include cycle with a warning', () => {
    const files = { 'a.cmake': 'find_package(A)\ninclude(b.cmake)\n', 'b.cmake': 'find_package(B)\ninclude(a.cmake)\n' };
    const { dependencies, warnings } = parse('include(a.cmake)\n', files);
    expect(dependencies.map((d) => d.name)).toEqual(['a', 'b']);
    expect(warnings).toEqual(['b.cmake:2: include cycle through a.cmake ignored']);
  });

  it('ignores members of the files map that come from its prototype', () => {
    const { dependencies, warnings } = parse('include(./constructor)\nfind_package(X)\n', {});
    expect(dependencies.map((d) => d.name)).toEqual(['x']);
    expect(warnings).toEqual(['CMakeLists.txt:1: include(./constructor): file not found; its dependencies are not counted']);
  });
});

describe('parseCMakeLists: find_package', () => {
  it.each([
    ['find_package(Boost 1.70 REQUIRED system filesystem)', ['system', 'filesystem'], [], true],
    ['find_package(Qt6 REQUIRED COMPONENTS Widgets Network)', ['Widgets', 'Network'], [], true],
    ['find_package(Qt6 COMPONENTS Core OPTIONAL_COMPONENTS Svg)', ['Core'], ['Svg'], false],
    ['find_package(OpenCV 4 QUIET COMPONENTS core imgproc)', ['core', 'imgproc'], [], false],
    ['find_package(Python3 3.8...3.12 REQUIRED COMPONENTS Interpreter Development)', ['Interpreter', 'Development'], [], true],
    ['find_package(Foo CONFIG REQUIRED PATHS /opt/foo HINTS ${X})', [], [], true],
    ['find_package(Boost REQUIRED COMPONENTS system;thread)', ['system', 'thread'], [], true],
  ])('%s', (text, components, optionalComponents, required) => {
    expect(only(text)).toMatchObject({ kind: 'find_package', components, optionalComponents, required });
  });

  it('merges a package declared twice: components added, required if either is', () => {
    const { dependencies } = parse('find_package(Boost COMPONENTS system)\nfind_package(Boost REQUIRED COMPONENTS filesystem system)\n');
    expect(dependencies).toHaveLength(1);
    expect(dependencies[0]).toMatchObject({ components: ['system', 'filesystem'], required: true, source: { line: 1 } });
  });

  it('dedupes across kinds by normalised name, the first keeping its kind', () => {
    const { dependencies } = parse('find_package(CURL)\npkg_check_modules(CURL REQUIRED libcurl)\nFetchContent_Declare(CURL GIT_REPOSITORY x)\n');
    expect(dependencies.map((d) => [d.name, d.rawName, d.kind, d.required])).toEqual([['curl', 'CURL', 'find_package', true]]);
  });

  it('accepts any case in the command name, and quoted names', () => {
    expect(names('FIND_PACKAGE(ZLIB)\nfind_package("PNG")\nfetchcontent_declare(Catch2 GIT_REPOSITORY x)\n')).toEqual(['zlib', 'png', 'catch2']);
  });

  it('keeps build-system packages such as Threads and PkgConfig: the caller decides', () => {
    expect(names('find_package(Threads REQUIRED)\nfind_package(PkgConfig)\nfind_package(OpenMP)\n')).toEqual(['threads', 'pkgconfig', 'openmp']);
  });
});

describe('parseCMakeLists: pkg-config', () => {
  it.each([
    ['pkg_check_modules(CURL REQUIRED libcurl)', ['curl']],
    ['pkg_check_modules(DEPS REQUIRED IMPORTED_TARGET GLOBAL libcurl>=7.68 zlib glib-2.0<=2.80)', ['curl', 'zlib', 'glib-2.0']],
    ['pkg_check_modules(GTK3 gtk+-3.0)', ['gtk+-3.0']],
    ['pkg_check_modules(X QUIET "sqlite3 >= 3.30")', ['sqlite3']],
    ['pkg_check_modules(X REQUIRED glib-2.0 >= 2.10 gio-2.0)', ['glib-2.0', 'gio-2.0']],
    ['pkg_search_module(SSL REQUIRED openssl libssl)', ['openssl', 'ssl']],
  ])('%s', (text, expected) => {
    expect(names(text)).toEqual(expected);
  });

  it('never counts the prefix, and reads REQUIRED', () => {
    const [a] = parse('pkg_check_modules(PC_ZMQ REQUIRED libzmq)').dependencies;
    expect(a).toMatchObject({ name: 'zmq', rawName: 'libzmq', kind: 'pkg_check_modules', required: true });
    expect(parse('pkg_search_module(PC_ZMQ libzmq)').dependencies[0].required).toBe(false);
  });
});

describe('parseCMakeLists: variables and control flow', () => {
  it('expands set() variables in names', () => {
    expect(names('set(JSON_LIB nlohmann_json)\nfind_package(${JSON_LIB} 3.2 REQUIRED)\n')).toEqual(['nlohmann_json']);
  });

  it('keeps an unresolved variable as written, with a warning', () => {
    const { dependencies, warnings } = parse('find_package(${UNKNOWN_LIB} REQUIRED)\n');
    expect(dependencies[0].name).toBe('${unknown_lib}');
    expect(dependencies[0].rawName).toBe('${UNKNOWN_LIB}');
    expect(warnings).toEqual(['CMakeLists.txt:1: package name ${UNKNOWN_LIB} has a variable that cannot be resolved; kept as written']);
  });

  it('runs foreach loops over items and lists', () => {
    const text = [
      'set(DEPS fmt spdlog)',
      'foreach(dep ${DEPS})',
      '  find_package(${dep} REQUIRED)',
      'endforeach()',
      'list(APPEND EXTRA cxxopts)',
      'foreach(d IN LISTS EXTRA ITEMS CLI11)',
      '  foreach(inner IN ITEMS x)',
      '    FetchContent_Declare(${d})',
      '  endforeach()',
      'endforeach()',
    ].join('\n');
    expect(names(text)).toEqual(['fmt', 'spdlog', 'cxxopts', 'cli11']);
  });

  it('runs the project\'s functions and macros where they are called, not where defined', () => {
    const text = [
      'function(add_dep NAME)',
      '  find_package(${NAME} REQUIRED)',
      'endfunction()',
      'macro(fetch name url)',
      '  FetchContent_Declare(${name} GIT_REPOSITORY ${url})',
      'endmacro()',
      'function(never_called)',
      '  find_package(Unused)',
      'endfunction()',
      'add_dep(ZLIB)',
      'fetch(doctest https://github.com/doctest/doctest.git)',
    ].join('\n');
    expect(names(text)).toEqual(['zlib', 'doctest']);
  });

  it('bounds recursion in a function that calls itself', () => {
    expect(names('function(f)\n  find_package(X)\n  f()\nendfunction()\nf()\n')).toEqual(['x']);
  });

  it('does not evaluate conditions: every branch counts', () => {
    expect(names('if(WIN32)\n  find_package(WinSock)\nelseif(APPLE)\n  find_package(CoreFoundation)\nelse()\n  find_package(X11)\nendif()\n')).toEqual(['winsock', 'corefoundation', 'x11']);
  });

  it('does not replace a normal value with a cache entry, and honours option()', () => {
    expect(names('set(L fmt)\nset(L spdlog CACHE STRING "lib")\nfind_package(${L})\noption(USE_X "x" ON)\nfind_package(${USE_X})\n')).toEqual(['fmt', 'on']);
  });

  it('gives a subdirectory its own scope', () => {
    const files = { 'sub/CMakeLists.txt': 'set(LIB png)\nfind_package(${LIB})\n' };
    expect(names('set(LIB zlib)\nadd_subdirectory(sub)\nfind_package(${LIB})\n', files)).toEqual(['png', 'zlib']);
  });
});

describe('parseCMakeLists: rejected files', () => {
  it.each([
    ['project(x)\nfind_package(\n', 2, 'find_package( is not closed'],
    ['project(x)\nfind_package()\n', 2, 'find_package() names no package'],
    ['FetchContent_Declare()\n', 1, 'fetchcontent_declare() names no package'],
    ['pkg_check_modules(PREFIX REQUIRED)\n', 1, 'pkg_check_modules() names no package'],
    ['foreach(x a b)\nfind_package(${x})\n', 1, 'foreach() has no matching endforeach()'],
    ['include()\n', 1, 'include() names no file'],
  ])('rejects %j at its line', (text, line, reason) => {
    const err = manifestError(() => parse(text));
    expect([err.file, err.line, err.reason]).toEqual(['CMakeLists.txt', line, reason]);
  });

  it('names the included file and its line', () => {
    const err = manifestError(() => parse('include(cmake/bad.cmake)\n', { 'cmake/bad.cmake': 'set(A 1)\n\nfind_package(fmt\n' }));
    expect(err.message).toBe('cmake/bad.cmake:3: find_package( is not closed');
  });
});

describe('normalizeCppName', () => {
  it.each([
    ['libcurl', 'curl'],
    ['CURL', 'curl'],
    ['OpenSSL', 'openssl'],
    ['libssl.so.3', 'ssl'],
    ['libz.so', 'z'],
    ['LibXml2', 'xml2'],
    ['zlib', 'zlib'],
    ['lib', 'lib'],
    ['nlohmann_json', 'nlohmann_json'],
  ])('%s -> %s', (raw, name) => {
    expect(normalizeCppName(raw)).toBe(name);
  });
});
