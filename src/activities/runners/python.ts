import type { ProjectFiles } from '../../domain/files';
import type { ErrorClass } from '../../domain/instance';
import type { ContainerLimits } from '../../domain/study';
import { classifyPythonFailure } from '../../ecosystems/python/classify';
import { findPythonEntry } from '../../ecosystems/python/entry';
import type { ContainerSession } from '../containerSession';
import type { ExecutionStep } from '../types';

/** Lists installed distributions with the file lists of their RECORD files (for trace mapping). */
const DIST_INDEX_SCRIPT = `
import csv, io, json, importlib.metadata as md
out = []
for d in md.distributions():
    record = d.read_text("RECORD") or ""
    files = [row[0] for row in csv.reader(io.StringIO(record)) if row]
    out.append({"name": d.metadata["Name"], "version": d.version, "location": str(d.locate_file("")), "files": files})
print(json.dumps(out))
`;

// --seccomp-bpf stops the tracee only on the traced calls, not on every syscall (about 1.2x instead of 2.5x).
const TRACE = ['strace', '-f', '-qq', '--seccomp-bpf', '-e', 'trace=open,openat,execve'];
const OUT = '/tmp/envgap';

export interface PythonRunResult {
  success: boolean;
  failedStep: ExecutionStep | null;
  errorClass: ErrorClass | null;
  errorOutput: string | null;
  exitCode: number | null;
  log: string;
  installedBefore: string | null;
  installedAfter: string | null;
  distributionIndex: string | null;
  baselineTrace: string | null;
  runTrace: string | null;
}

/**
 * Execute for Python: a venv (prepared in the image, fresh in every container), the installed set
 * before, `pip install -r requirements.txt`, the installed set after with RECORD file lists, then the
 * entry program run without arguments under `strace -f`. A bare interpreter start is traced too, so
 * that what the interpreter opens on its own is not counted as the program's use.
 */
export async function runPython(session: ContainerSession, files: ProjectFiles, limits: ContainerLimits): Promise<PythonRunResult> {
  const log: string[] = [];
  const r: PythonRunResult = {
    success: false, failedStep: null, errorClass: null, errorOutput: null, exitCode: null, log: '',
    installedBefore: null, installedAfter: null, distributionIndex: null, baselineTrace: null, runTrace: null,
  };
  const fail = (step: ExecutionStep, cls: ErrorClass, output: string, exitCode: number | null) => {
    Object.assign(r, { failedStep: step, errorClass: cls, errorOutput: output, exitCode, log: log.join('\n') });
    return r;
  };

  await session.put('/work', files);
  await session.put(OUT, { 'dist_index.py': DIST_INDEX_SCRIPT });
  const before = await session.exec('setup', ['sh', '-c', `pip list --format=json > ${OUT}/before.json`], 120);
  if (before.exitCode !== 0) throw new Error(`pip list failed in the Python image (exit ${before.exitCode}): ${before.output.slice(-2000)}`);
  r.installedBefore = await session.readText(`${OUT}/before.json`);

  if ('requirements.txt' in files) {
    const install = await session.exec('install', ['pip', 'install', '--no-input', '-r', 'requirements.txt'], limits.install_timeout_s);
    log.push('$ pip install -r requirements.txt', install.output);
    if (install.exitCode !== 0) {
      const cls = classifyPythonFailure({ step: 'install', exitCode: install.exitCode, timedOut: install.timedOut, output: install.output });
      return fail('install', cls, install.output, install.exitCode);
    }
  } else {
    log.push('(no requirements.txt: nothing to install)');
  }
  // The baseline is traced after the install, so start-up hooks (.pth files) of installed packages
  // count as the interpreter's doing, not the program's.
  const after = await session.exec('setup', ['sh', '-c',
    `pip list --format=json > ${OUT}/after.json && python ${OUT}/dist_index.py > ${OUT}/dists.json && ${TRACE.join(' ')} -o ${OUT}/baseline.trace python -c pass`], 120);
  if (after.exitCode !== 0) throw new Error(`listing installed distributions failed (exit ${after.exitCode}): ${after.output.slice(-2000)}`);
  r.installedAfter = await session.readText(`${OUT}/after.json`);
  r.distributionIndex = await session.readText(`${OUT}/dists.json`);
  r.baselineTrace = await session.readText(`${OUT}/baseline.trace`);

  const entry = findPythonEntry(files);
  if (!entry) return fail('run', 'Other', 'envgap: no entry point found (main.py, __main__.py, app.py, or a single top-level script)', null);
  const target = entry.kind === 'script' ? [entry.path] : ['-m', entry.module];
  const run = await session.exec('run', [...TRACE, '-o', `${OUT}/run.trace`, 'python', ...target], limits.run_timeout_s);
  log.push(`$ python ${target.join(' ')}`, run.output);
  r.runTrace = await session.readText(`${OUT}/run.trace`);
  if (run.exitCode !== 0) {
    const oom = run.exitCode === 137 && (await session.oomKilled());
    const output = oom ? `${run.output}\nenvgap: the container was killed for exceeding its memory limit (OOMKilled)` : run.output;
    const cls = classifyPythonFailure({ step: 'run', exitCode: run.exitCode, timedOut: run.timedOut && !oom, output });
    return fail('run', cls, output, run.exitCode);
  }
  r.success = true;
  r.exitCode = 0;
  r.log = log.join('\n');
  return r;
}
