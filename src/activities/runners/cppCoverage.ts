import type { RunCoverage } from '../../domain/coverage';
import type { ContainerLimits } from '../../domain/study';
import type { RunSpec } from '../../domain/runSpec';
import { CPP_BUILD_DIR } from '../../ecosystems/containerPaths';
import { CPP_COVERAGE_BUILD_DIR, ownCoverageNotes, parseGcovJson } from '../../ecosystems/cpp/coverage';
import { shellQuote } from '../../text/shellQuote';
import { OUT, shellLine, type Steps } from './steps';

/** The flags of the instrumented build, given on CMake's command line as a user would (a CMakeLists that overwrites them is not measured). */
const COVERAGE_FLAGS = ['C', 'CXX', 'EXE_LINKER', 'SHARED_LINKER', 'MODULE_LINKER'].map((k) => `-DCMAKE_${k}_FLAGS=--coverage`);

const BUILD = CPP_COVERAGE_BUILD_DIR.slice('/work/'.length);
const TRACED_BUILD = CPP_BUILD_DIR.slice('/work/'.length);

export type CppCoverage = { coverage: RunCoverage } | { notMeasured: string };

/**
 * The share of the project's own C++ a run executed, from a second build and run of the program's own,
 * after the traced ones and after their artefacts are read, so that neither changes: the same CMake
 * project configured into build-envgap-coverage with `--coverage` (FetchContent's sources copied from
 * the traced build, fetched nothing), built, the same executable run with the same arguments, standard
 * input, variables and time limit, untraced, then gcov over the project's own objects. Whatever goes
 * wrong is a reason it was not measured, never the instance's result.
 */
export async function measureCppCoverage<A extends string>(steps: Steps<A>, limits: ContainerLimits, executable: string, spec: RunSpec): Promise<CppCoverage> {
  try {
    return await instrumentedRun(steps, limits, executable, spec);
  } catch (err) {
    return { notMeasured: `the instrumented build or run could not be done: ${(err as Error).message.slice(0, 500)}` };
  }
}

async function instrumentedRun<A extends string>(steps: Steps<A>, limits: ContainerLimits, executable: string, spec: RunSpec): Promise<CppCoverage> {
  const session = steps.session;
  const sh = (cmd: string, timeoutS: number, io: { env?: string[]; stdinFile?: string } = {}) => session.exec(['sh', '-c', cmd], { step: 'setup', timeoutS, workdir: '/work', ...io });
  const reused = await sh(`if [ -d ${TRACED_BUILD}/_deps ]; then mkdir -p ${BUILD}/_deps && for d in ${TRACED_BUILD}/_deps/*-src; do [ -d "$d" ] && cp -a "$d" ${BUILD}/_deps/; done; echo reused; fi; true`, 300);
  const fetchContent = reused.output.includes('reused') ? ['-DFETCHCONTENT_FULLY_DISCONNECTED=ON'] : [];
  const configure = ['cmake', '-S', '.', '-B', BUILD, '-DFETCHCONTENT_QUIET=OFF', ...fetchContent, ...COVERAGE_FLAGS];
  const configured = await sh(shellLine(configure), limits.install_timeout_s);
  if (configured.exitCode !== 0) return { notMeasured: `the instrumented build failed: ${shellLine(configure)} exited ${configured.exitCode}${configured.timedOut ? ' (timed out)' : ''}` };
  const build = ['cmake', '--build', BUILD, '-j', String(Math.max(1, Math.ceil(limits.cpus)))];
  const built = await sh(shellLine(build), limits.install_timeout_s);
  if (built.exitCode !== 0) return { notMeasured: `the instrumented build failed: ${shellLine(build)} exited ${built.exitCode}${built.timedOut ? ' (timed out)' : ''}` };

  const instrumented = `${BUILD}/${executable.slice(TRACED_BUILD.length + 1)}`;
  const program = [`./${instrumented}`, ...spec.args];
  const io: { env: string[]; stdinFile?: string } = { env: Object.entries(spec.env).map(([k, v]) => `${k}=${v}`) };
  if (spec.stdin !== null) {
    await session.put(OUT, { stdin: spec.stdin });
    io.stdinFile = `${OUT}/stdin`;
  }
  const run = await sh(`test -x ${shellQuote(instrumented)} || exit 127; exec ${shellLine(program)}`, limits.run_timeout_s, io);
  if (run.timedOut) return { notMeasured: `the instrumented run was stopped at its time limit of ${limits.run_timeout_s} s, so it wrote no .gcda` };
  if (run.exitCode !== 0) return { notMeasured: `the instrumented run (${shellLine(program)}) exited ${run.exitCode} where the traced run exited 0: another run than the traced one` };
  steps.note(`envgap: coverage: the instrumented build (${BUILD}, --coverage) and its run (${shellLine(program)}) exited 0`);

  const found = await sh(`cd ${BUILD} && find . -name '*.gcno' -o -name '*.gcda'`, 300);
  const paths = new Set(found.output.split('\n').map((l) => l.trim()));
  const own = ownCoverageNotes([...paths]);
  if (own.length === 0) return { notMeasured: 'the instrumented build compiled none of the project’s sources with --coverage (its CMakeLists overrides the flags)' };
  if (!own.some((n) => paths.has(n.replace(/\.gcno$/, '.gcda')))) return { notMeasured: 'the instrumented run wrote no .gcda (it did not return from main nor call exit)' };
  await session.put(OUT, { 'gcov-notes.txt': own.join('\n') + '\n' });
  const gcov = await sh(`cd ${BUILD} && xargs -a ${OUT}/gcov-notes.txt gcov --json-format --stdout > ${OUT}/gcov.json 2>/dev/null`, 300);
  if (gcov.exitCode !== 0) return { notMeasured: `gcov exited ${gcov.exitCode}` };
  const text = await session.readText(`${OUT}/gcov.json`);
  const coverage = text === null ? null : parseGcovJson(text);
  return coverage ? { coverage } : { notMeasured: 'gcov counted no line of code in the project’s own sources' };
}
