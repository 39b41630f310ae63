import type { ProjectFiles } from '../../domain/files';
import type { ContainerLimits } from '../../domain/study';
import { JAVASCRIPT, type JavaScriptArtefact } from '../../ecosystems/javascript/ecosystem';
import { chooseNodeEntry } from '../../ecosystems/javascript/entry';
import type { Sandbox } from '../../sandbox';
import type { RunSpec } from '../../domain/runSpec';
import { NO_RUN_SPEC, OUT, shellLine, Steps, traced, type RunnerResult } from './steps';
import { installSystemPackages } from './system';
import { npmDateOptions, type RunnerOptions } from './resolution';
import { measureV8Coverage, V8_COVERAGE_ENV, V8_EXTRACT_SCRIPT } from './v8Coverage';

/** One JSON line per package.json with a name under node_modules: {"dir": ..., "name": ...}. */
const PACKAGE_INDEX_SCRIPT = `
const fs = require('fs'), path = require('path');
function walk(dir) {
  let entries;
  try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    const p = path.join(dir, e.name);
    try {
      const name = JSON.parse(fs.readFileSync(path.join(p, 'package.json'), 'utf8')).name;
      if (typeof name === 'string') console.log(JSON.stringify({ dir: p, name }));
    } catch {}
    walk(p);
  }
}
walk('/work/node_modules');
`;

/**
 * Execute for JavaScript (npm): apt.txt; `npm install`, traced as the build (install scripts);
 * `npm ls --all --json` for the installed tree; an index of node_modules package folders; then
 * the entry (src/ecosystems/javascript/entry.ts): `node` on a file, or `npm start` for a start script
 * that runs more than `node FILE`; both traced the same way (strace -f follows npm to the program),
 * with NODE_V8_COVERAGE set, from whose reports the share of the project's own code run is measured.
 * Artefacts: buildTrace, npmLs, packageIndex, runTrace.
 */
export async function runJavaScript(session: Sandbox<ContainerLimits>, files: ProjectFiles, limits: ContainerLimits, spec: RunSpec = NO_RUN_SPEC, options: RunnerOptions = {}): Promise<RunnerResult<JavaScriptArtefact>> {
  const steps = new Steps<JavaScriptArtefact>(session);
  await steps.start(files, { 'package_index.js': PACKAGE_INDEX_SCRIPT, 'v8_extract.js': V8_EXTRACT_SCRIPT });
  const system = await installSystemPackages(steps, files, limits);
  if (system) return system;

  if (JAVASCRIPT.manifestFile in files) {
    const npmInstall = ['npm', 'install', '--no-audit', '--no-fund', ...npmDateOptions(options)];
    const install = await steps.exec('install', traced(`${OUT}/build.trace`, npmInstall), limits.install_timeout_s, shellLine(['npm', 'install', ...npmDateOptions(options)]));
    await steps.collect('buildTrace', `${OUT}/build.trace`);
    if (install.exitCode !== 0) return steps.failure('install', install, JAVASCRIPT.classifyFailure);
    // npm ls exits 1 on a problem in the tree but still prints it.
    await steps.harness(`npm ls --all --json > ${OUT}/npm-ls.json 2>/dev/null; test -s ${OUT}/npm-ls.json`, 'npm ls');
    await steps.collect('npmLs', `${OUT}/npm-ls.json`);
  } else {
    steps.note(`(no ${JAVASCRIPT.manifestFile}: nothing to install)`);
    steps.keep('npmLs', '{}');
  }
  await steps.harness(`node ${OUT}/package_index.js > ${OUT}/packages.jsonl`, 'indexing node_modules');
  await steps.collect('packageIndex', `${OUT}/packages.jsonl`);

  const { entry, reason } = chooseNodeEntry(files);
  if (!entry) {
    steps.note(`envgap: ${reason}`);
    return steps.fail('run', 'Other', `envgap: ${reason}`, null);
  }
  // npm's update check would reach for the network the run has not got.
  const extra = spec.args.length > 0 ? (entry.kind === 'node' ? spec.args : ['--', ...spec.args]) : [];
  const program = entry.kind === 'node' ? ['node', ...entry.args, ...extra] : ['npm', 'start', '--no-update-notifier', ...extra];
  const shown = entry.kind === 'node' ? shellLine(program) : shellLine(['npm', 'start', ...extra]);
  steps.entry(shown, reason);
  const run = await steps.run({ command: program, traced: traced(`${OUT}/run.trace`, program) }, limits.run_timeout_s, shown, spec, V8_COVERAGE_ENV);
  await steps.collect('runTrace', `${OUT}/run.trace`);
  const coverage = await measureV8Coverage(steps, files);
  const result = await steps.ran(run, JAVASCRIPT.classifyFailure);
  return coverage ? { ...result, coverage } : result;
}
