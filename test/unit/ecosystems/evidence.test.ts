import { traceEvidence } from '../../../src/ecosystems/evidence';
import { JAVA } from '../../../src/ecosystems/java/ecosystem';
import { JAVASCRIPT } from '../../../src/ecosystems/javascript/ecosystem';
import { extractLayer } from '../../../src/ecosystems/ecosystem';

const open = (pid: number, path: string) => `${pid}   openat(AT_FDCWD, "${path}", O_RDONLY|O_CLOEXEC) = 3`;

// The evidence of each package is exactly what made the layer count it: the same mapping, file by file.
test('javascript: run files under node_modules by package, install-script folders as build evidence', () => {
  const texts = {
    packageIndex: ['{"dir": "/work/node_modules/chalk", "name": "chalk"}', '{"dir": "/work/node_modules/esbuild", "name": "esbuild"}', '{"dir": "/work/node_modules/chalk/node_modules/ansi-styles", "name": "ansi-styles"}'].join('\n'),
    runTrace: [open(7, '/work/node_modules/chalk/source/index.js'), open(7, '/work/node_modules/chalk/node_modules/ansi-styles/index.js'), open(7, '/work/index.js'), open(7, '/usr/lib/node_modules/npm/index.js')].join('\n'),
    buildTrace: '8     chdir("/work/node_modules/esbuild") = 0\n8     chdir("/work") = 0\n',
  };
  const traced = extractLayer(JAVASCRIPT.traced, texts);
  const build = extractLayer(JAVASCRIPT.tracedBuild!, texts, []);
  const e = traceEvidence('javascript', texts, traced, build);
  expect(Object.fromEntries(e.run)).toEqual({ chalk: ['/work/node_modules/chalk/source/index.js'], 'ansi-styles': ['/work/node_modules/chalk/node_modules/ansi-styles/index.js'] });
  expect(Object.fromEntries(e.build)).toEqual({ esbuild: ['/work/node_modules/esbuild'] });
  expect(new Set(e.run.keys())).toEqual(new Set(traced));
});

test('java: the jars classes were loaded from, and the jars javac read', () => {
  const gson = '/root/.m2/repository/com/google/code/gson/gson/2.10.1/gson-2.10.1.jar';
  const lang3 = '/root/.m2/repository/org/apache/commons/commons-lang3/3.14.0/commons-lang3-3.14.0.jar';
  const texts = {
    runTrace: [open(9, gson), open(9, lang3), open(9, '/usr/lib/jvm/java-17-openjdk-amd64/lib/modules')].join('\n'),
    classLoadLog: `[0.100s][info][class,load] com.google.gson.Gson source: file:${gson}\n`,
    buildTrace: [open(5, gson), open(5, lang3)].join('\n'),
  };
  const traced = extractLayer(JAVA.traced, texts);
  expect(traced).toEqual(['gson']);
  const e = traceEvidence('java', texts, traced, ['commons-lang3', 'gson']);
  expect(Object.fromEntries(e.run)).toEqual({ gson: [gson] });
  expect(Object.fromEntries(e.build)).toEqual({ gson: [gson], 'commons-lang3': [lang3] });
});

test('a name not in the layer has no evidence', () => {
  const texts = { runTrace: open(7, '/work/node_modules/chalk/index.js'), packageIndex: '{"dir": "/work/node_modules/chalk", "name": "chalk"}' };
  expect(traceEvidence('javascript', texts, [], []).run.size).toBe(0);
});

test('cpp: shared objects the run loaded by library; FetchContent sources and pkg-config files the build read', () => {
  const texts = {
    runTrace: [open(3, '/lib/x86_64-linux-gnu/libcrypto.so.3'), open(3, '/lib/x86_64-linux-gnu/libc.so.6'), open(3, '/work/build/app')].join('\n'),
    configureTrace: open(4, '/work/build/_deps/tinyjson-src/CMakeLists.txt'),
    buildTrace: [open(5, '/work/build/_deps/tinyjson-src/include/tinyjson.h'), open(5, '/usr/lib/x86_64-linux-gnu/pkgconfig/libcurl.pc')].join('\n'),
  };
  const e = traceEvidence('cpp', texts, ['crypto'], ['curl', 'tinyjson']);
  expect(Object.fromEntries(e.run)).toEqual({ crypto: ['/lib/x86_64-linux-gnu/libcrypto.so.3'] });
  expect(Object.fromEntries(e.build)).toEqual({
    tinyjson: ['/work/build/_deps/tinyjson-src/CMakeLists.txt', '/work/build/_deps/tinyjson-src/include/tinyjson.h'],
    curl: ['/usr/lib/x86_64-linux-gnu/pkgconfig/libcurl.pc'],
  });
});
