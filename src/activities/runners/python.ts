import type { ProjectFiles } from '../../domain/files';
import type { ContainerLimits } from '../../domain/study';
import { PYTHON, type PythonArtefact } from '../../ecosystems/python/ecosystem';
import { choosePythonEntry } from '../../ecosystems/python/entry';
import type { Sandbox } from '../../sandbox';
import type { RunSpec } from '../../domain/runSpec';
import { NO_RUN_SPEC, OUT, shellLine, Steps, TRACE, traced, type RunnerResult } from './steps';
import { installSystemPackages } from './system';
import { pipInstallCommand, type RunnerOptions } from './resolution';
import { checkCoverage, COVERAGE_FILES, measurePythonCoverage, underCoverage } from './pythonCoverage';

/**
 * Lists installed distributions with their files (for trace mapping): a wheel install's RECORD; a
 * legacy `setup.py install` (an sdist without pyproject.toml, `wheel` absent) writes no RECORD but an
 * egg-info installed-files.txt, relative to the egg-info folder, which is read instead: without it, a
 * package such as python-nmap was imported and never traced.
 */
export const DIST_INDEX_SCRIPT = `
import csv, io, json, os, importlib.metadata as md
out = []
for d in md.distributions():
    location = str(d.locate_file(""))
    record = d.read_text("RECORD")
    if record:
        files = [row[0] for row in csv.reader(io.StringIO(record)) if row]
    else:
        meta = str(getattr(d, "_path", ""))
        listed = (d.read_text("installed-files.txt") or "").splitlines()
        files = [os.path.relpath(os.path.normpath(os.path.join(meta, line)), location) for line in listed if line.strip() and meta]
    out.append({"name": d.metadata["Name"], "version": d.version, "location": location, "files": files})
print(json.dumps(out))
`;

/**
 * Execute for Python: a venv (prepared in the image, fresh in every container), apt.txt, the
 * installed set before, `pip install -r requirements.txt`, the installed set after with RECORD file
 * lists, then the entry program run under strace (with the iteration's run spec: arguments, stdin, env). A bare interpreter start is
 * traced after the install, so that what the interpreter and start-up hooks (.pth files) open is not
 * counted as the program's use. The run goes through coverage.py, baked into the image in a folder of
 * the harness's own (src/activities/runners/pythonCoverage.ts), for the share of the project's code it ran.
 * Artefacts: installedBefore, installedAfter (pip list JSON), distributionIndex, baselineTrace, runTrace.
 */
export async function runPython(session: Sandbox<ContainerLimits>, files: ProjectFiles, limits: ContainerLimits, spec: RunSpec = NO_RUN_SPEC, options: RunnerOptions = {}): Promise<RunnerResult<PythonArtefact>> {
  const steps = new Steps<PythonArtefact>(session);
  await steps.start(files, { 'dist_index.py': DIST_INDEX_SCRIPT, ...COVERAGE_FILES });

  const system = await installSystemPackages(steps, files, limits);
  if (system) return system;
  await steps.harness(`pip list --format=json > ${OUT}/before.json`, 'pip list');
  await steps.collect('installedBefore', `${OUT}/before.json`);

  if (PYTHON.manifestFile in files) {
    const { command, shown } = await pipInstallCommand(steps, PYTHON.manifestFile, options);
    const install = await steps.exec('install', command, limits.install_timeout_s, shown);
    if (install.exitCode !== 0) return steps.failure('install', install, PYTHON.classifyFailure);
  } else {
    steps.note(`(no ${PYTHON.manifestFile}: nothing to install)`);
  }
  await steps.harness(
    `pip list --format=json > ${OUT}/after.json && python ${OUT}/dist_index.py > ${OUT}/dists.json && ${TRACE.join(' ')} -o ${OUT}/baseline.trace python -c pass`,
    'listing installed distributions',
  );
  await steps.collect('installedAfter', `${OUT}/after.json`);
  await steps.collect('distributionIndex', `${OUT}/dists.json`);
  await steps.collect('baselineTrace', `${OUT}/baseline.trace`);

  const { entry, reason } = choosePythonEntry(files);
  if (!entry) {
    steps.note(`envgap: ${reason}`);
    return steps.fail('run', 'Other', `envgap: ${reason}`, null);
  }
  const python = ['python', ...(entry.kind === 'script' ? [entry.path] : ['-m', entry.module]), ...spec.args];
  steps.entry(shellLine(python), reason);
  await checkCoverage(steps);
  const run = await steps.run({ command: python, traced: traced(`${OUT}/run.trace`, underCoverage(python)) }, limits.run_timeout_s, shellLine(python), spec);
  await steps.collect('runTrace', `${OUT}/run.trace`);
  const coverage = await measurePythonCoverage(steps);
  const result = await steps.ran(run, PYTHON.classifyFailure);
  return coverage ? { ...result, coverage } : result;
}
