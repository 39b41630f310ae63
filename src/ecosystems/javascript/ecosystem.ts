import { PROJECT_DIR } from '../containerPaths';
import { dependencyManifest } from '../dependencyManifest';
import type { Ecosystem } from '../ecosystem';
import { layer } from '../ecosystem';
import { classifyNodeFailure, type NodeStep } from './classify';
import { packagesWithInstallScripts, parseStraceChdirs } from './installScripts';
import { parsePackageJson } from './manifest';
import { parseNpmLs } from './resolve';
import { mapNodeTrace, parsePackageIndex } from './trace';
import { JAVASCRIPT_STATIC } from './staticBaseline';
import { TRACED_OUTSIDE_INSTALLED } from '../tracedBase';

/** What the JavaScript runner stores (src/activities/runners/javascript.ts). */
export const JAVASCRIPT_ARTEFACTS = ['buildTrace', 'npmLs', 'packageIndex', 'runTrace'] as const;
export type JavaScriptArtefact = (typeof JAVASCRIPT_ARTEFACTS)[number];

/** The npm that Node.js 18.20.4 (Debian's nodejs) ships with upstream, from the npm registry: one package with its dependencies bundled. */
export const NPM_VERSION = '10.7.0';

/**
 * Debian's nodejs with the npm of a clean Node.js install. Debian's own npm comes with some 870
 * packaged node modules in /usr/share/nodejs, a folder on node's global module path: any program's
 * require('lodash') found one there, so an undeclared dependency ran as if declared. Debian's npm is
 * used once to install the registry's npm, then purged with the modules it pulled in; of what libnode
 * still needs (acorn, cjs-module-lexer, undici) only the files it loads by path are kept, with no
 * package.json or index.js, so that require() finds none of them (docs/ecosystems.md, "JavaScript
 * runtime"). The build fails when a module is still found by name.
 */
const NODE_IMAGE_SETUP = `ARG npm_config_registry
RUN npm install -g --prefix /usr/local --cafile /etc/ssl/certs/ca-certificates.crt npm@${NPM_VERSION} \\
 && apt-get purge -y -q npm && apt-get autoremove -y -q \\
 && keep="$(grep -ao '/usr/share/nodejs/[A-Za-z0-9_./@-]*\\.js' /usr/lib/x86_64-linux-gnu/libnode.so.* /lib/x86_64-linux-gnu/libnode.so.* 2>/dev/null | cut -d: -f2 | sort -u)" \\
 && test -n "$keep" \\
 && find /usr/share/nodejs -type f | grep -vxF "$keep" | xargs -r rm -f \\
 && find /usr/share/nodejs -depth -type d -empty -delete \\
 && hash -r && test "$(npm --version)" = ${NPM_VERSION} \\
 && node -e 'for (const m of ["lodash", "acorn", "undici", "cjs-module-lexer", "busboy", "xtend"]) { let found = null; try { found = require.resolve(m); } catch {} if (found) { console.error("still resolvable: " + m + " at " + found); process.exit(1); } }' \\
 && node -e 'fetch("http://127.0.0.1:9/").catch((e) => e.cause || process.exit(1))' \\
 && printf 'console.log(1)\\n' > /tmp/esm.mjs && node /tmp/esm.mjs && rm /tmp/esm.mjs
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
`;

/** JavaScript: package.json, npm, D3 from the files opened under node_modules. */
export const JAVASCRIPT: Ecosystem<'javascript', JavaScriptArtefact, NodeStep> = {
  language: 'javascript',
  displayName: 'JavaScript',
  ...dependencyManifest({ file: 'package.json', purlType: 'npm', parse: parsePackageJson, fields: ['spec'] }),
  artefacts: JAVASCRIPT_ARTEFACTS,
  installed: { ...layer(['npmLs'], (t) => parseNpmLs(t.need('npmLs'))), readsProject: false },
  traced: layer(['runTrace', 'packageIndex'], (t) => {
    t.need('runTrace');
    return mapNodeTrace(t.opened('runTrace'), { projectDir: PROJECT_DIR, packageDirs: parsePackageIndex(t.need('packageIndex')) });
  }),
  tracedDebianPackages: null,
  // Packages whose install scripts ran.
  tracedBuild: layer(['buildTrace', 'packageIndex'], (t) => packagesWithInstallScripts(parseStraceChdirs(t.get('buildTrace') ?? ''), parsePackageIndex(t.get('packageIndex') ?? ''))),
  tracedBase: TRACED_OUTSIDE_INSTALLED,
  classifyFailure: classifyNodeFailure,
  image: {
    packages: ['nodejs', 'npm'],
    setup: NODE_IMAGE_SETUP,
  },
  packageManager: {
    caches: [{ volume: 'envgap-npm-cache', path: '/root/.npm' }],
    // npm clones git dependencies with git.
    caBundleEnv: ['GIT_SSL_CAINFO', 'NODE_EXTRA_CA_CERTS', 'npm_config_cafile'],
    mirror: (s) => ({ env: s.npmRegistry ? [`npm_config_registry=${s.npmRegistry}`] : [], binds: [], files: {} }),
  },
  staticBaseline: JAVASCRIPT_STATIC,
};
