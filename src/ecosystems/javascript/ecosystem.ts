import { PROJECT_DIR } from '../containerPaths';
import type { Ecosystem } from '../ecosystem';
import { layer } from '../ecosystem';
import { classifyNodeFailure, type NodeStep } from './classify';
import { packagesWithInstallScripts, parseStraceChdirs } from './installScripts';
import { parsePackageJson } from './manifest';
import { parseNpmLs } from './resolve';
import { mapNodeTrace, parsePackageIndex } from './trace';

/** What the JavaScript runner stores (src/activities/runners/javascript.ts). */
export const JAVASCRIPT_ARTEFACTS = ['buildTrace', 'npmLs', 'packageIndex', 'runTrace'] as const;
export type JavaScriptArtefact = (typeof JAVASCRIPT_ARTEFACTS)[number];

/** JavaScript: package.json, npm, D3 from the files opened under node_modules. */
export const JAVASCRIPT: Ecosystem<'javascript', JavaScriptArtefact, NodeStep> = {
  language: 'javascript',
  manifestFile: 'package.json',
  parseManifest(text, { fileName }) {
    const parsed = parsePackageJson(text, { fileName });
    return { warnings: parsed.warnings, dependencies: parsed.dependencies.map((d) => ({ name: d.name, spec: d.spec })) };
  },
  artefacts: JAVASCRIPT_ARTEFACTS,
  installed: { ...layer(['npmLs'], (t) => parseNpmLs(t.need('npmLs'))), readsProject: false },
  traced: layer(['runTrace', 'packageIndex'], (t) => {
    t.need('runTrace');
    return mapNodeTrace(t.opened('runTrace'), { projectDir: PROJECT_DIR, packageDirs: parsePackageIndex(t.need('packageIndex')) });
  }),
  tracedDebianPackages: null,
  // Packages whose install scripts ran.
  tracedBuild: layer(['buildTrace', 'packageIndex'], (t) => packagesWithInstallScripts(parseStraceChdirs(t.get('buildTrace') ?? ''), parsePackageIndex(t.get('packageIndex') ?? ''))),
  classifyFailure: classifyNodeFailure,
  image: {
    packages: ['nodejs', 'npm'],
    setup: `ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
`,
  },
};
