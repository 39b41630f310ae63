import { classifyNodeFailure } from '../../../src/ecosystems/javascript/classify';
import { resourceLimitHit } from '../../../src/ecosystems/resourceLimits';

const install = (output: string) => classifyNodeFailure({ step: 'install', exitCode: 1, timedOut: false, output });
const run = (output: string, exitCode: number | null = 1) => classifyNodeFailure({ step: 'run', exitCode, timedOut: false, output });

const LOG = 'npm ERR! A complete log of this run can be found in:\nnpm ERR!     /root/.npm/_logs/2024-05-02T09_30_11_482Z-debug-0.log\n';

// npm 9.2 (Debian's npm for Node 18) unless said otherwise.
const NPM = {
  e404: `npm ERR! code E404
npm ERR! 404 Not Found - GET https://registry.npmjs.org/word-frequency-counter-lib - Not found
npm ERR! 404 
npm ERR! 404  'word-frequency-counter-lib@^1.0.0' is not in this registry.
npm ERR! 404 
npm ERR! 404 Note that you can also install from a
npm ERR! 404 tarball, folder, http url, or git url.

${LOG}`,
  // npm 11, as printed on these machines.
  e404npm11: `npm error code E404
npm error 404 Not Found - GET https://registry.npmjs.org/envgap-surely-not-a-package-zz
npm error 404
npm error 404  The requested resource 'envgap-surely-not-a-package-zz@^1.0.0' could not be found or you do not have permission to access it.
npm error 404
npm error 404 Note that you can also install from a
npm error 404 tarball, folder, http url, or git url.
npm error A complete log of this run can be found in: /root/.npm/_logs/2026-11-30T11_31_02_118Z-debug-0.log
`,
  etarget: `npm ERR! code ETARGET
npm ERR! notarget No matching version found for chalk@^99.0.0.
npm ERR! notarget In most cases you or one of your dependencies are requesting
npm ERR! notarget a package version that doesn't exist.

${LOG}`,
  eaiAgain: `npm ERR! code EAI_AGAIN
npm ERR! syscall getaddrinfo
npm ERR! errno EAI_AGAIN
npm ERR! request to https://registry.npmjs.org/express failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org

${LOG}`,
  selfSigned: `npm ERR! code SELF_SIGNED_CERT_IN_CHAIN
npm ERR! errno SELF_SIGNED_CERT_IN_CHAIN
npm ERR! request to https://registry.npmjs.org/express failed, reason: self-signed certificate in certificate chain

${LOG}`,
  timedOut: `npm WARN ERR! ETIMEDOUT
npm ERR! code ETIMEDOUT
npm ERR! syscall connect
npm ERR! errno ETIMEDOUT
npm ERR! network request to https://registry.npmjs.org/lodash failed, reason: connect ETIMEDOUT 104.16.24.34:443
npm ERR! network This is a problem related to network connectivity.
`,
  eresolve: `npm ERR! code ERESOLVE
npm ERR! ERESOLVE unable to resolve dependency tree
npm ERR! 
npm ERR! While resolving: dashboard@1.0.0
npm ERR! Found: react@18.2.0
npm ERR! node_modules/react
npm ERR!   react@"18.2.0" from the root project
npm ERR! 
npm ERR! Could not resolve dependency:
npm ERR! peer react@"^16.8.0" from react-charts-lite@2.1.0
npm ERR! node_modules/react-charts-lite
npm ERR!   react-charts-lite@"2.1.0" from the root project
npm ERR! 
npm ERR! Fix the upstream dependency conflict, or retry
npm ERR! this command with --force or --legacy-peer-deps
npm ERR! to accept an incorrect (and potentially broken) dependency resolution.
`,
  jsonParse: `npm ERR! code EJSONPARSE
npm ERR! path /work/package.json
npm ERR! JSON.parse Unexpected token } in JSON at position 112 while parsing near "...\\"^4.18.2\\",\\n  },\\n}"
npm ERR! JSON.parse Failed to parse JSON data.
npm ERR! JSON.parse Note: package.json must be actual JSON, not just JavaScript.
`,
  canvasPkgConfig: `npm ERR! code 1
npm ERR! path /work/node_modules/canvas
npm ERR! command failed
npm ERR! command sh -c node-pre-gyp install --fallback-to-build --update-binary
npm ERR! Failed to execute '/usr/bin/node /usr/share/nodejs/node-gyp/bin/node-gyp.js configure --fallback-to-build --update-binary --module=/work/node_modules/canvas/build/Release/canvas.node --module_name=canvas --module_path=/work/node_modules/canvas/build/Release --napi_version=8 --node_abi_napi=napi --napi_build_version=0 --node_napi_label=node-v108' (1)
npm ERR! node-pre-gyp info it worked if it ends with ok
npm ERR! node-pre-gyp info using node-pre-gyp@1.0.11
npm ERR! node-pre-gyp info using node@18.19.0 | linux | x64
npm ERR! node-pre-gyp http GET https://github.com/Automattic/node-canvas/releases/download/v2.11.2/canvas-v2.11.2-node-v108-linux-glibc-x64.tar.gz
npm ERR! node-pre-gyp ERR! install request to https://github.com/Automattic/node-canvas/releases/download/v2.11.2/canvas-v2.11.2-node-v108-linux-glibc-x64.tar.gz failed, reason: getaddrinfo EAI_AGAIN github.com
npm ERR! node-pre-gyp WARN Pre-built binaries not installable for canvas@2.11.2 and node@18.19.0 (node-v108 ABI, glibc) (falling back to source compile with node-gyp)
npm ERR! Package pangocairo was not found in the pkg-config search path.
npm ERR! Perhaps you should add the directory containing \`pangocairo.pc'
npm ERR! to the PKG_CONFIG_PATH environment variable
npm ERR! No package 'pangocairo' found
npm ERR! gyp: Call to 'pkg-config pangocairo --libs' returned exit status 1 while in binding.gyp. while trying to load binding.gyp
npm ERR! gyp ERR! configure error 
npm ERR! gyp ERR! stack Error: \`gyp\` failed with exit code: 1
`,
  sqliteHeader: `npm ERR! code 1
npm ERR! path /work/node_modules/sqlite3
npm ERR! command failed
npm ERR! command sh -c prebuild-install -r napi || node-gyp rebuild
npm ERR! prebuild-install warn install request to https://github.com/TryGhost/node-sqlite3/releases/download/v5.1.6/sqlite3-v5.1.6-napi-v6-linux-glibc-x64.tar.gz failed, reason: getaddrinfo EAI_AGAIN github.com
npm ERR! gyp info it worked if it ends with ok
npm ERR! gyp info spawn make
npm ERR! In file included from ../src/database.cc:4:
npm ERR! ../src/database.h:9:10: fatal error: sqlite3.h: No such file or directory
npm ERR!     9 | #include <sqlite3.h>
npm ERR!       |          ^~~~~~~~~~~
npm ERR! compilation terminated.
npm ERR! make: *** [node_sqlite3.target.mk:140: Release/obj.target/node_sqlite3/src/database.o] Error 1
npm ERR! gyp ERR! build error 
`,
  noPython: `npm ERR! code 1
npm ERR! path /work/node_modules/bcrypt
npm ERR! command failed
npm ERR! command sh -c node-pre-gyp install --fallback-to-build
npm ERR! gyp info find Python using Python version 3.11.2 found at "/usr/bin/python3"
npm ERR! gyp ERR! find Python 
npm ERR! gyp ERR! stack Error: Could not find any Python installation to use
`,
  noMake: `npm ERR! gyp ERR! build error 
npm ERR! gyp ERR! stack Error: not found: make
npm ERR! gyp ERR! stack     at getNotFoundError (/usr/share/nodejs/which/lib/index.js:16:17)
`,
  compileError: `npm ERR! code 1
npm ERR! path /work/node_modules/old-native
npm ERR! gyp info spawn make
npm ERR! ../src/binding.cc:12:28: error: 'class v8::Object' has no member named 'ForceSet'
npm ERR! make: *** [old_native.target.mk:111: Release/obj.target/old_native/src/binding.o] Error 1
npm ERR! gyp ERR! build error 
npm ERR! gyp ERR! stack Error: \`make\` failed with exit code: 2
`,
  postinstallDownload: `npm ERR! code 1
npm ERR! path /work/node_modules/puppeteer
npm ERR! command failed
npm ERR! command sh -c node install.mjs
npm ERR! Error: ERROR: Failed to set up Chrome r119.0.6045.105! Set "PUPPETEER_SKIP_DOWNLOAD" env variable to skip download.
npm ERR!     at file:///work/node_modules/puppeteer/lib/esm/puppeteer/node/install.js:27:15
npm ERR!   [cause]: Error: getaddrinfo ENOTFOUND edgedl.me.gvt1.com
`,
  gitRepoMissing: `npm ERR! code 128
npm ERR! An unknown git error occurred
npm ERR! command git --no-replace-objects ls-remote https://github.com/someone/word-utils.git
npm ERR! remote: Repository not found.
npm ERR! fatal: repository 'https://github.com/someone/word-utils.git/' not found
`,
};

describe('classifyNodeFailure: install', () => {
  it('classes a package or version the registry lacks as MissingDep', () => {
    expect(install(NPM.e404)).toBe('MissingDep');
    expect(install(NPM.e404npm11)).toBe('MissingDep');
    expect(install(NPM.etarget)).toBe('MissingDep');
    expect(install(NPM.gitRepoMissing)).toBe('MissingDep');
  });

  it('classes network and TLS faults as FetchFail', () => {
    expect(install(NPM.eaiAgain)).toBe('FetchFail');
    expect(install(NPM.selfSigned)).toBe('FetchFail');
    expect(install(NPM.timedOut)).toBe('FetchFail');
    expect(install('npm ERR! code UNABLE_TO_GET_ISSUER_CERT_LOCALLY\nnpm ERR! errno UNABLE_TO_GET_ISSUER_CERT_LOCALLY\nnpm ERR! request to https://registry.npmjs.org/axios failed, reason: unable to get local issuer certificate\n')).toBe('FetchFail');
    expect(install(NPM.postinstallDownload)).toBe('FetchFail');
  });

  it('classes native builds missing a system library, header or tool as SystemLib, even after a failed prebuilt download', () => {
    expect(install(NPM.canvasPkgConfig)).toBe('SystemLib');
    expect(install(NPM.sqliteHeader)).toBe('SystemLib');
    expect(install(NPM.noPython)).toBe('SystemLib');
    expect(install(NPM.noMake)).toBe('SystemLib');
  });

  it('classes dependency conflicts, bad manifests and other build failures as Build', () => {
    expect(install(NPM.eresolve)).toBe('Build');
    expect(install(NPM.jsonParse)).toBe('Build');
    expect(install(`npm ERR! prebuild-install warn install request to https://github.com/x/y/releases/download/v1/y.tar.gz failed, reason: getaddrinfo EAI_AGAIN github.com\n${NPM.compileError}`)).toBe('Build');
    expect(install('')).toBe('Build');
  });
});

// Node 18 (Debian) messages; Node 20 prints the same.
const NODE = {
  missingPackage: `node:internal/modules/cjs/loader:1080
  throw err;
  ^

Error: Cannot find module 'lodash'
Require stack:
- /work/index.js
    at Module._resolveFilename (node:internal/modules/cjs/loader:1077:15)
    at Module._load (node:internal/modules/cjs/loader:922:27)
    at Module.require (node:internal/modules/cjs/loader:1143:19)
    at require (node:internal/modules/cjs/helpers:119:18)
    at Object.<anonymous> (/work/index.js:1:11)
    at Module._compile (node:internal/modules/cjs/loader:1256:14) {
  code: 'MODULE_NOT_FOUND',
  requireStack: [ '/work/index.js' ]
}

Node.js v18.19.0
`,
  missingScoped: "Error: Cannot find module '@faker-js/faker/locale/en'\nRequire stack:\n- /work/src/seed.js\n",
  missingEsmPackage: `node:internal/errors:496
    ErrorCaptureStackTrace(err);
    ^

Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'chalk' imported from /work/index.mjs
    at new NodeError (node:internal/errors:405:5)
    at packageResolve (node:internal/modules/esm/resolve:916:9)
    at moduleResolve (node:internal/modules/esm/resolve:973:20) {
  code: 'ERR_MODULE_NOT_FOUND'
}

Node.js v18.19.0
`,
  missingRelative: `Error: Cannot find module './lib/util'
Require stack:
- /work/rel.js
    at Module._resolveFilename (node:internal/modules/cjs/loader:1077:15) {
  code: 'MODULE_NOT_FOUND',
  requireStack: [ '/work/rel.js' ]
}
`,
  missingEntry: `node:internal/modules/cjs/loader:1080
  throw err;
  ^

Error: Cannot find module '/work/index.js'
    at Module._resolveFilename (node:internal/modules/cjs/loader:1077:15)
    at node:internal/main/run_main_module:23:47 {
  code: 'MODULE_NOT_FOUND',
  requireStack: []
}
`,
  missingEsmFile: "Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/work/lib/util.js' imported from /work/index.mjs\n",
  nativeLibrary: `node:internal/modules/cjs/loader:1327
  return process.dlopen(module, path.toNamespacedPath(filename));
                 ^

Error: libvips-cpp.so.42: cannot open shared object file: No such file or directory
    at Module._extensions..node (node:internal/modules/cjs/loader:1327:18)
  code: 'ERR_DLOPEN_FAILED'
}
`,
  heap: `<--- Last few GCs --->
FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory
 1: 0xb85bc0 node::Abort() [node]
`,
  requireEsm: `Error [ERR_REQUIRE_ESM]: require() of ES Module /work/node_modules/chalk/source/index.js from /work/index.js not supported.
Instead change the require of index.js in /work/index.js to a dynamic import() which is available in all CommonJS modules.
`,
  typeError: "TypeError: Cannot read properties of undefined (reading 'split')\n    at countWords (/work/index.js:8:22)\n",
  spawnMissing: `node:events:492
      throw er; // Unhandled 'error' event
      ^

Error: spawn nmap ENOENT
    at ChildProcess._handle.onexit (node:internal/child_process:284:19)
    at onErrorNT (node:internal/child_process:477:16)
    at process.processTicksAndRejections (node:internal/process/task_queues:82:21)
Emitted 'error' event on ChildProcess instance at:
    at ChildProcess._handle.onexit (node:internal/child_process:290:12)
    at onErrorNT (node:internal/child_process:477:16)
    at process.processTicksAndRejections (node:internal/process/task_queues:82:21) {
  errno: -2,
  code: 'ENOENT',
  syscall: 'spawn nmap',
  path: 'nmap',
  spawnargs: [ '-sV', '10.0.0.1' ]
}

Node.js v18.19.0
`,
  spawnOwnScript: "Error: spawn ./bin/convert.sh ENOENT\n    at ChildProcess._handle.onexit (node:internal/child_process:284:19)\n",
  execMissing: "Error: Command failed: convert in.png -resize 50% out.png\n/bin/sh: 1: convert: not found\n\n    at ChildProcess.exithandler (node:child_process:422:12)\n    at ChildProcess.emit (node:events:517:28)\n",
  npmScriptCliMissing: '\n> scanner@1.0.0 start\n> tsc && node dist/index.js\n\nsh: 1: tsc: not found\n',
};

describe('classifyNodeFailure: run', () => {
  it('classes a package that cannot be found as MissingDep', () => {
    expect(run(NODE.missingPackage)).toBe('MissingDep');
    expect(run(NODE.missingScoped)).toBe('MissingDep');
    expect(run(NODE.missingEsmPackage)).toBe('MissingDep');
  });

  it('classes the project\'s own missing files as Runtime', () => {
    expect(run(NODE.missingRelative)).toBe('Runtime');
    expect(run(NODE.missingEntry)).toBe('Runtime');
    expect(run(NODE.missingEsmFile)).toBe('Runtime');
  });

  it('classes a shared object that does not load as SystemLib', () => {
    expect(run(NODE.nativeLibrary)).toBe('SystemLib');
  });

  it('classes a system program the code starts that is not installed as SystemLib', () => {
    expect(run(NODE.spawnMissing)).toBe('SystemLib');
    expect(run(NODE.execMissing)).toBe('SystemLib');
    expect(run(NODE.spawnOwnScript)).toBe('Runtime');
    // Under an npm script a missing command is as likely a package's CLI: not taken for a system program.
    expect(run(NODE.npmScriptCliMissing, 127)).toBe('Runtime');
  });

  it('classes what the machine cannot give as Environment, before its own rules', () => {
    expect(run("Error: getaddrinfo ENOTFOUND api.openweathermap.org\n    at GetAddrInfoReqWrap.onlookup [as oncomplete] (node:dns:107:26) {\n  errno: -3008,\n  code: 'ENOTFOUND',\n  syscall: 'getaddrinfo',\n  hostname: 'api.openweathermap.org'\n}\n")).toBe('Environment');
    expect(run('MongooseServerSelectionError: connect ECONNREFUSED 127.0.0.1:27017\n    at _handleConnectionErrors (/work/node_modules/mongoose/lib/connection.js:788:11)\n')).toBe('Environment');
  });

  it('classes out of memory, a kill and other errors as Runtime', () => {
    expect(run(NODE.heap, 134)).toBe('Runtime');
    expect(run('', 137)).toBe('Runtime');
    expect(run(NODE.requireEsm)).toBe('Runtime');
    expect(run(NODE.typeError)).toBe('Runtime');
  });
});

describe('classifyNodeFailure: system and timeouts', () => {
  it('classes apt-get failures as apt failures are', () => {
    const system = (output: string) => classifyNodeFailure({ step: 'system', exitCode: 100, timedOut: false, output });
    expect(system('E: Unable to locate package libcairo-dev\n')).toBe('MissingDep');
    expect(system("E: Package 'libvips' has no installation candidate\n")).toBe('MissingDep');
  });

  it('classes any timed-out step as Timeout', () => {
    for (const step of ['system', 'install', 'run'] as const) {
      expect(classifyNodeFailure({ step, exitCode: null, timedOut: true, output: NPM.e404 })).toBe('Timeout');
    }
  });
});

// Node 18 in the javascript image, child processes spawned in a loop at --pids-limit 30.
const SPAWN_LIMIT = `Error: spawn sleep EAGAIN
    at ChildProcess._handle.onexit (node:internal/child_process:284:19)
    at onErrorNT (node:internal/child_process:477:16)
    at process.processTicksAndRejections (node:internal/process/task_queues:82:21) {
  errno: -11,
  code: 'EAGAIN',
  syscall: 'spawn sleep',
  path: 'sleep',
  spawnargs: [ '30' ]
}
`;

describe('resource limits (src/ecosystems/resourceLimits.ts, classed before these rules)', () => {
  it('a spawn refused at the pids limit is PidsLimit from the output alone, where no counters came back', () => {
    expect(resourceLimitHit({ exitCode: 1, timedOut: false, output: SPAWN_LIMIT }, { memory_mb: 1024, pids: 30 })?.errorClass).toBe('PidsLimit');
  });

  it('what reaches the classifier hit no limit: Runtime', () => {
    expect(run(SPAWN_LIMIT)).toBe('Runtime');
  });
});
