import { dpkgOwnersBothWays, installedLayer, MissingArtefactError, tracedBuildLayer, tracedDebianPackagesLayer, tracedLayer } from '../../src/ecosystems/layers';

const cmake = 'cmake_minimum_required(VERSION 3.16)\nproject(t CXX)\nfind_package(OpenSSL REQUIRED)\nadd_executable(t main.cpp)\n';
const runTrace = [
  '101 openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libcrypto.so.3", O_RDONLY|O_CLOEXEC) = 3',
  '101 openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libstdc++.so.6", O_RDONLY|O_CLOEXEC) = 3',
  '101 openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libc.so.6", O_RDONLY|O_CLOEXEC) = 3',
  '101 openat(AT_FDCWD, "/work/build/libhelpers.so", O_RDONLY|O_CLOEXEC) = 3',
  '101 openat(AT_FDCWD, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 3',
].join('\n');
const dpkg = 'libssl3:amd64: /usr/lib/x86_64-linux-gnu/libcrypto.so.3\nlibc6:amd64: /lib/x86_64-linux-gnu/libc.so.6\n';

test('C++ D2: CMake names normalised, plus the apt.txt packages as Debian names', () => {
  const files = { 'CMakeLists.txt': cmake, 'apt.txt': 'libssl-dev\n' };
  const log = '-- The CXX compiler identification is GNU 12.2.0\n-- Found OpenSSL: /usr/lib/x86_64-linux-gnu/libcrypto.so (found version "3.0.15")\n';
  expect(installedLayer('cpp', { configureLog: log }, files)).toEqual(['libssl-dev', 'openssl']);
});

test('C++ D3: loaded libraries, less the base runtime and the project\'s own; their Debian packages through dpkg', () => {
  const t = { runTrace, dpkgOwners: dpkg };
  expect(tracedLayer('cpp', t)).toEqual(['crypto']);
  expect(tracedDebianPackagesLayer('cpp', t)).toEqual(['libssl3']);
  expect(tracedDebianPackagesLayer('python', t)).toBeNull();
  expect(tracedDebianPackagesLayer('cpp', { runTrace })).toBeNull();
});

test('dpkg answers hold for both /lib and /usr/lib spellings', () => {
  const owners = dpkgOwnersBothWays(dpkg);
  expect(owners.get('/lib/x86_64-linux-gnu/libcrypto.so.3')).toBe('libssl3');
  expect(owners.get('/usr/lib/x86_64-linux-gnu/libc.so.6')).toBe('libc6');
});

test('Java D3 reads the class-load log when there is one', () => {
  const classLoad = '[0.101s][info][class,load] com.google.gson.Gson source: file:/work/target/dependency/com/google/code/gson/gson/2.10.1/gson-2.10.1.jar\n';
  const opened = '7 openat(AT_FDCWD, "/work/target/dependency/org/apache/commons/commons-lang3/3.14.0/commons-lang3-3.14.0.jar", O_RDONLY) = 4\n';
  expect(tracedLayer('java', { runTrace: opened, classLoadLog: classLoad })).toEqual(['gson']);
  expect(tracedLayer('java', { runTrace: opened })).toEqual(['commons-lang3']);
});

test('JavaScript D3-build: packages whose install scripts ran', () => {
  const buildTrace = '55 chdir("/work/node_modules/esbuild") = 0\n55 chdir("/work") = 0\n56 chdir("/nope") = -1 ENOENT (No such file or directory)\n';
  const packageIndex = '{"dir":"/work/node_modules/esbuild","name":"esbuild"}\n{"dir":"/work/node_modules/left-pad","name":"left-pad"}\n';
  expect(tracedBuildLayer('javascript', { buildTrace, packageIndex }, [])).toEqual(['esbuild']);
  expect(tracedBuildLayer('python', {}, [])).toBeNull();
});

test('a layer whose artefact was not recorded says which', () => {
  expect(() => installedLayer('java', {}, {})).toThrow(MissingArtefactError);
  expect(() => tracedLayer('javascript', { packageIndex: '' })).toThrow(/runTrace/);
});
