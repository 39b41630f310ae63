import { mapNodeTrace, packageOfNodeModulesFile, parsePackageIndex } from '../../../src/ecosystems/javascript/trace';
import { parseStraceOpenedFiles } from '../../../src/ecosystems/strace';

// The runner's index of node_modules: one line per folder whose package.json has a name.
const INDEX_TEXT = `{"dir":"/work/node_modules/@babel/runtime","name":"@babel/runtime"}
{"dir":"/work/node_modules/ansi-styles","name":"ansi-styles"}
{"dir":"/work/node_modules/chalk","name":"chalk"}
{"dir":"/work/node_modules/color-convert","name":"color-convert"}
{"dir":"/work/node_modules/color-name","name":"color-name"}
{"dir":"/work/node_modules/commander","name":"commander"}
{"dir":"/work/node_modules/debug","name":"debug"}
{"dir":"/work/node_modules/has-flag","name":"has-flag"}
{"dir":"/work/node_modules/ms","name":"ms"}
{"dir":"/work/node_modules/send-lite","name":"send-lite"}
{"dir":"/work/node_modules/send-lite/node_modules/debug","name":"debug"}
{"dir":"/work/node_modules/send-lite/node_modules/ms","name":"ms"}
{"dir":"/work/node_modules/supports-color","name":"supports-color"}
{"dir":"/work/node_modules/my-lodash","name":"lodash"}
`;

describe('parsePackageIndex', () => {
  it('maps each folder to its package name', () => {
    const index = parsePackageIndex(INDEX_TEXT);
    expect(index.size).toBe(14);
    expect(index.get('/work/node_modules/@babel/runtime')).toBe('@babel/runtime');
    expect(index.get('/work/node_modules/send-lite/node_modules/debug')).toBe('debug');
    expect(index.get('/work/node_modules/my-lodash')).toBe('lodash');
  });

  it('normalises folders, skips blank lines and nameless entries', () => {
    const index = parsePackageIndex('{"dir": "/work/node_modules/a/", "name": "a"}\r\n\r\n{"dir": "/work/node_modules/a/lib", "name": null}\n{"dir": "/work/node_modules/b", "name": ""}\n');
    expect([...index]).toEqual([['/work/node_modules/a', 'a']]);
    expect(parsePackageIndex('')).toEqual(new Map());
  });

  it('throws on a line that is not an index entry', () => {
    expect(() => parsePackageIndex('{"dir":"/work/node_modules/a","name":"a"}\nnode:internal/modules/cjs/loader:1080\n')).toThrow(/package index line 2/);
    expect(() => parsePackageIndex('{"name":"a"}')).toThrow(/line 1/);
    expect(() => parsePackageIndex('{"dir":"node_modules/a","name":"a"}')).toThrow(/absolute/);
  });
});

describe('packageOfNodeModulesFile', () => {
  const index = parsePackageIndex(INDEX_TEXT);

  it('finds the nearest enclosing package, nested node_modules included', () => {
    expect(packageOfNodeModulesFile('/work/node_modules/chalk/source/index.js', index)).toBe('chalk');
    expect(packageOfNodeModulesFile('/work/node_modules/chalk/package.json', index)).toBe('chalk');
    expect(packageOfNodeModulesFile('/work/node_modules/@babel/runtime/helpers/interopRequireDefault.js', index)).toBe('@babel/runtime');
    expect(packageOfNodeModulesFile('/work/node_modules/send-lite/node_modules/debug/src/node.js', index)).toBe('debug');
    expect(packageOfNodeModulesFile('/work/node_modules/send-lite/lib/send.js', index)).toBe('send-lite');
  });

  it('looks past folders whose package.json has no name (not in the index)', () => {
    expect(packageOfNodeModulesFile('/work/node_modules/@babel/runtime/helpers/esm/package.json', index)).toBe('@babel/runtime');
    expect(packageOfNodeModulesFile('/work/node_modules/@babel/runtime/helpers/esm/objectSpread2.js', index)).toBe('@babel/runtime');
  });

  it('takes a package folder itself, and nothing for node_modules, .bin or the project', () => {
    expect(packageOfNodeModulesFile('/work/node_modules/chalk', index)).toBe('chalk');
    expect(packageOfNodeModulesFile('/work/node_modules', index)).toBeNull();
    expect(packageOfNodeModulesFile('/work/node_modules/.bin/semver', index)).toBeNull();
    expect(packageOfNodeModulesFile('/work/node_modules/.package-lock.json', index)).toBeNull();
    expect(packageOfNodeModulesFile('/work/index.js', index)).toBeNull();
    expect(packageOfNodeModulesFile('/work/node_modules/unindexed/index.js', index)).toBeNull();
  });
});

// `node index.js` (Node 18 from Debian) under strace -f: CommonJS resolution probes paths that do
// not exist (-1 ENOENT) before it finds each package.
const NODE_RUN = `6001  execve("/usr/bin/node", ["node", "index.js"], 0x7ffe6f4a2c30 /* 9 vars */) = 0
6001  openat(AT_FDCWD, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 3
6001  openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libnode.so.108", O_RDONLY|O_CLOEXEC) = 3
6001  openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libuv.so.1", O_RDONLY|O_CLOEXEC) = 3
6001  openat(AT_FDCWD, "/usr/share/nodejs/acorn/dist/acorn.js", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
6001  openat(AT_FDCWD, "/work/index.js", O_RDONLY|O_CLOEXEC) = 17
6001  openat(AT_FDCWD, "/work/package.json", O_RDONLY|O_CLOEXEC) = 17
6001  openat(AT_FDCWD, "/work/node_modules/chalk/package.json", O_RDONLY|O_CLOEXEC) = 17
6001  openat(AT_FDCWD, "/work/node_modules/chalk/source/package.json", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
6001  openat(AT_FDCWD, "/work/node_modules/chalk/source/index.js", O_RDONLY|O_CLOEXEC) = 17
6001  openat(AT_FDCWD, "/work/node_modules/chalk/node_modules/ansi-styles/package.json", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
6001  openat(AT_FDCWD, "/work/node_modules/ansi-styles/package.json", O_RDONLY|O_CLOEXEC) = 17
6001  openat(AT_FDCWD, "/work/node_modules/ansi-styles/index.js", O_RDONLY|O_CLOEXEC) = 17
6001  openat(AT_FDCWD, "/work/node_modules/color-convert/package.json", O_RDONLY|O_CLOEXEC) = 17
6001  openat(AT_FDCWD, "/work/node_modules/color-convert/index.js", O_RDONLY|O_CLOEXEC) = 17
6001  openat(AT_FDCWD, "/work/node_modules/color-convert/conversions.js", O_RDONLY|O_CLOEXEC) = 17
6001  openat(AT_FDCWD, "/work/node_modules/color-name/index.js", O_RDONLY|O_CLOEXEC) = 17
6001  openat(AT_FDCWD, "/work/node_modules/supports-color/index.js", O_RDONLY|O_CLOEXEC) = 17
6001  openat(AT_FDCWD, "/work/node_modules/has-flag/index.js", O_RDONLY|O_CLOEXEC) = 17
6001  openat(AT_FDCWD, "/work/node_modules/send-lite/node_modules/debug/src/index.js", O_RDONLY|O_CLOEXEC) = 17
6001  openat(AT_FDCWD, "/work/node_modules/send-lite/node_modules/ms/index.js", O_RDONLY|O_CLOEXEC) = 17
6001  openat(AT_FDCWD, "/work/node_modules/.bin/semver", O_RDONLY|O_CLOEXEC) = 17
6001  openat(AT_FDCWD, "/work/data/words.txt", O_RDONLY|O_CLOEXEC) = 18
6001  +++ exited with 0 +++
`;

describe('mapNodeTrace', () => {
  const packageDirs = parsePackageIndex(INDEX_TEXT);

  it('maps the files a run opened under node_modules to their packages, sorted and unique', () => {
    expect(mapNodeTrace(parseStraceOpenedFiles(NODE_RUN), { projectDir: '/work', packageDirs })).toEqual([
      'ansi-styles',
      'chalk',
      'color-convert',
      'color-name',
      'debug',
      'has-flag',
      'ms',
      'supports-color',
    ]);
  });

  it('uses the name in package.json, not the folder (an npm alias)', () => {
    expect(mapNodeTrace(['/work/node_modules/my-lodash/lodash.js'], { projectDir: '/work', packageDirs })).toEqual(['lodash']);
  });

  it('counts only node_modules of the project directory', () => {
    const opened = ['/usr/lib/node_modules/npm/index.js', '/work/node_modules/chalk/source/index.js', '/work/lib/node_modules.js'];
    expect(mapNodeTrace(opened, { projectDir: '/work/', packageDirs })).toEqual(['chalk']);
    expect(mapNodeTrace(opened, { projectDir: '/elsewhere', packageDirs })).toEqual([]);
    expect(mapNodeTrace([], { projectDir: '/work', packageDirs })).toEqual([]);
  });
});

// A real `node index.js` (Node 20 here; Node 18 opens the same) requiring chalk and send-lite (whose
// nested debug it loads) and importing an ESM helper of @babel/runtime, whose folder has a nameless
// package.json; with the runner's real index of that node_modules.
const REAL_INDEX = `{"dir":"/work/node_modules/@babel/runtime","name":"@babel/runtime"}
{"dir":"/work/node_modules/chalk","name":"chalk"}
{"dir":"/work/node_modules/send-lite","name":"send-lite"}
{"dir":"/work/node_modules/send-lite/node_modules/debug","name":"debug"}
`;
const REAL_RUN = `10807 execve("/usr/bin/node", ["node", "index.js"], 0x7ffd2ff4b340 /* 35 vars */) = 0
10807 openat(AT_FDCWD, "/work/package.json", O_RDONLY|O_CLOEXEC) = 18
10807 openat(AT_FDCWD, "/work/index.js", O_RDONLY|O_CLOEXEC) = 18
10807 openat(AT_FDCWD, "/work/node_modules/chalk/package.json", O_RDONLY|O_CLOEXEC) = 18
10807 openat(AT_FDCWD, "/work/node_modules/chalk/source/package.json", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
10807 openat(AT_FDCWD, "/work/node_modules/chalk/source/index.js", O_RDONLY|O_CLOEXEC) = 18
10807 openat(AT_FDCWD, "/work/node_modules/send-lite/package.json", O_RDONLY|O_CLOEXEC) = 18
10807 openat(AT_FDCWD, "/work/node_modules/send-lite/index.js", O_RDONLY|O_CLOEXEC) = 18
10807 openat(AT_FDCWD, "/work/node_modules/send-lite/node_modules/debug/package.json", O_RDONLY|O_CLOEXEC) = 18
10807 openat(AT_FDCWD, "/work/node_modules/send-lite/node_modules/debug/src/package.json", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
10807 openat(AT_FDCWD, "/work/node_modules/send-lite/node_modules/debug/src/index.js", O_RDONLY|O_CLOEXEC) = 18
10807 openat(AT_FDCWD, "/work/node_modules/@babel/runtime/package.json", O_RDONLY|O_CLOEXEC) = 18
10807 openat(AT_FDCWD, "/work/node_modules/@babel/runtime/helpers/esm/package.json", O_RDONLY|O_CLOEXEC) = 18
10817 openat(AT_FDCWD, "/work/node_modules/@babel/runtime/helpers/esm/x.js", O_RDONLY|O_CLOEXEC) = 18
`;

describe('mapNodeTrace on a real run', () => {
  it('maps CommonJS, nested and ESM loads to their packages', () => {
    expect(mapNodeTrace(parseStraceOpenedFiles(REAL_RUN), { projectDir: '/work', packageDirs: parsePackageIndex(REAL_INDEX) })).toEqual([
      '@babel/runtime',
      'chalk',
      'debug',
      'send-lite',
    ]);
  });
});
