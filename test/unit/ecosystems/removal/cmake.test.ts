import * as fs from 'node:fs';
import * as path from 'node:path';
import { declaredDependencies } from '../../../../src/ecosystems/declared';
import { cmakeSpans } from '../../../../src/ecosystems/removal/cmakeSpans';
import { withoutCmakePackages } from '../../../../src/ecosystems/removal/cmakeRemoval';
import { withoutDeclared } from '../../../../src/ecosystems/removal';

const quickstart = (task: string, iteration = 0) => {
  const dir = path.resolve(__dirname, '../../../../corpus/quickstart/cpp', task, '1', String(iteration));
  return Object.fromEntries(['CMakeLists.txt', 'apt.txt'].filter((f) => fs.existsSync(path.join(dir, f))).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
};
const d1 = (files: Record<string, string>) => declaredDependencies('cpp', files).names;

describe('CMakeLists.txt without a package', () => {
  test("the quickstart's phantom SQLite3 (found, never linked): its find_package line goes; it still names curl", () => {
    const files = quickstart('p_24');
    const r = withoutCmakePackages(files, ['sqlite3']);
    expect(r.removed).toEqual(['sqlite3']);
    expect(r.files['CMakeLists.txt']).not.toContain('find_package(SQLite3');
    expect(r.files['CMakeLists.txt']).toContain('find_package(CURL 7.68 REQUIRED)\n# SQLite 3');
    expect(d1(r.files)).toEqual(['curl', 'libcurl4-openssl-dev', 'libsqlite3-dev']);
  });

  test('with apt.txt: the Debian package goes from apt.txt (withoutDeclared)', () => {
    const r = withoutDeclared('cpp', quickstart('p_24'), ['sqlite3', 'libsqlite3-dev']);
    expect(d1(r.files)).toEqual(['curl', 'libcurl4-openssl-dev']);
  });

  test("a linked package's imported targets go from target_link_libraries, and the command with them when nothing is left", () => {
    const r = withoutCmakePackages(quickstart('p_11', 1), ['openssl']);
    const out = r.files['CMakeLists.txt']!;
    expect(out).not.toMatch(/find_package|OpenSSL::|target_link_libraries/);
    expect(out).toContain('# OpenSSL 3.0 (libcrypto): AES-256-CBC, PBKDF2-HMAC-SHA256, HMAC-SHA256 (EVP_MAC), RAND_bytes.\n\nadd_executable(aes_tool src/main.cpp)\n');
    expect(out.endsWith('target_compile_options(aes_tool PRIVATE -Wall -Wextra)\n')).toBe(true);
  });

  test('variables, namespaces named otherwise (SQLite::SQLite3), pkg-config modules and FetchContent', () => {
    const text = [
      'find_package(SQLite3 REQUIRED)',
      'find_package(ZLIB)',
      'include(FetchContent)',
      'FetchContent_Declare(fmt',
      '  GIT_REPOSITORY https://github.com/fmtlib/fmt.git',
      '  GIT_TAG 10.2.1)',
      'FetchContent_MakeAvailable(fmt)',
      'find_package(PkgConfig REQUIRED)',
      'pkg_check_modules(GLIB REQUIRED IMPORTED_TARGET glib-2.0>=2.60 gio-2.0)',
      'pkg_check_modules(UV REQUIRED IMPORTED_TARGET libuv)',
      'add_executable(app main.cpp)',
      'include_directories(${ZLIB_INCLUDE_DIRS})',
      'target_link_libraries(app PRIVATE SQLite::SQLite3 ${ZLIB_LIBRARIES} fmt::fmt PkgConfig::UV PkgConfig::GLIB) # all',
      '',
    ].join('\n');
    const r = withoutCmakePackages({ 'CMakeLists.txt': text }, ['sqlite3', 'zlib', 'fmt', 'uv', 'gio-2.0', 'absent']);
    expect(r.removed).toEqual(['sqlite3', 'zlib', 'fmt', 'uv', 'gio-2.0']);
    expect(r.notFound).toEqual(['absent']);
    const out = r.files['CMakeLists.txt']!;
    expect(out).toBe(
      [
        'include(FetchContent)',
        'find_package(PkgConfig REQUIRED)',
        'pkg_check_modules(GLIB REQUIRED IMPORTED_TARGET glib-2.0>=2.60 )',
        'add_executable(app main.cpp)',
        // fmt's targets are its project's own names, but fmt:: is its namespace: gone too.
        'target_link_libraries(app PRIVATE     PkgConfig::GLIB) # all',
        '',
      ].join('\n'),
    );
    expect(d1({ 'CMakeLists.txt': out })).toEqual(['glib-2.0', 'pkgconfig']);
  });

  test('the span scanner reads comments, quoted and bracket arguments and nested parentheses', () => {
    const spans = cmakeSpans('#[[ find_package(A) ]]\nset(X "a ) b" [=[ ) ]=]) # find_package(B)\nif((A AND B))\nendif()\n');
    expect(spans.map((s) => [s.name, s.args.map((a) => a.text)])).toEqual([
      ['set', ['X', 'a ) b', '[=[ ) ]=]']],
      ['if', ['A', 'AND', 'B']],
      ['endif', []],
    ]);
  });
});
