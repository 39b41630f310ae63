import type { ProjectFiles } from '../../domain/files';
import { CPP_BUILD_DIR } from '../../ecosystems/containerPaths';
import type { ContainerLimits } from '../../domain/study';
import { CPP, type CppArtefact } from '../../ecosystems/cpp/ecosystem';
import { chooseCppExecutable } from '../../ecosystems/cpp/entry';
import { parseStraceOpenedFiles } from '../../ecosystems/strace';
import type { Sandbox } from '../../sandbox';
import type { RunSpec } from '../../domain/runSpec';
import { NO_RUN_SPEC, OUT, shellLine, Steps, traced, type RunnerResult } from './steps';
import { installSystemPackages } from './system';
import { measureCppCoverage } from './cppCoverage';

/** System files whose Debian package tells which library a build or run used (headers may have no extension, as Eigen's). */
const OWNED = /^\/(?:usr|lib)\/(?:.*\.(?:h|hh|hpp|hxx|inl|ipp|tcc|pc|cmake|a)|.*\.so(?:\.[0-9.]+)?|(?:.*\/)?include\/[^.]+)$/;

/** With merged /usr, dpkg knows a file under only one of /lib and /usr/lib: ask for both. */
export function dpkgQueryPaths(paths: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    if (!OWNED.test(p) || p.startsWith(CPP_BUILD_DIR)) continue;
    out.add(p);
    if (p.startsWith('/lib/')) out.add('/usr' + p);
    else if (p.startsWith('/usr/lib/')) out.add(p.slice(4));
  }
  return [...out].sort();
}

/**
 * Execute for C++ (CMake): apt.txt; `cmake -S . -B build` (its log is D2's source; FetchContent made
 * verbose so that what it fetched shows), `cmake --build`,
 * both traced as the build; the first add_executable target run from the build folder, traced; then
 * `dpkg -S` of the system files the build and the run opened; then, for a program that exited 0, the
 * share of its own code run, from a separate instrumented build and run (./cppCoverage.ts).
 * Artefacts: configureLog, configureTrace, buildTrace, runTrace, dpkgOwners.
 */
export async function runCpp(session: Sandbox<ContainerLimits>, files: ProjectFiles, limits: ContainerLimits, spec: RunSpec = NO_RUN_SPEC): Promise<RunnerResult<CppArtefact>> {
  const steps = new Steps<CppArtefact>(session);
  await steps.start(files);
  const system = await installSystemPackages(steps, files, limits);
  if (system) return system;
  const cmakeLists = files[CPP.manifestFile];
  if (cmakeLists === undefined) return steps.fail('configure', 'Build', `envgap: no ${CPP.manifestFile} at the top of the project`, null);

  const configure = await steps.exec('configure', traced(`${OUT}/configure.trace`, ['cmake', '-S', '.', '-B', 'build', '-DFETCHCONTENT_QUIET=OFF']), limits.install_timeout_s, 'cmake -S . -B build');
  steps.keep('configureLog', configure.output);
  await steps.collect('configureTrace', `${OUT}/configure.trace`);
  if (configure.exitCode !== 0) return steps.failure('configure', configure, CPP.classifyFailure);

  const build = await steps.exec('build', traced(`${OUT}/build.trace`, ['cmake', '--build', 'build', '-j', String(Math.max(1, Math.ceil(limits.cpus)))]), limits.install_timeout_s, 'cmake --build build');
  await steps.collect('buildTrace', `${OUT}/build.trace`);
  if (build.exitCode !== 0) return steps.failure('build', build, CPP.classifyFailure);

  const { entry: target, reason } = chooseCppExecutable(cmakeLists);
  if (!target) {
    steps.note(`envgap: ${reason}`);
    return steps.fail('run', 'Other', `envgap: ${reason}`, null);
  }
  const locate = await steps.exec('setup', ['sh', '-c', `find build -type f -name '${target}' -perm -u+x | head -1`], 60, `find the ${target} executable`);
  const executable = locate.output.trim();
  if (!executable) return steps.fail('build', 'Build', `envgap: the build produced no executable named ${target}`, null);
  const program = [`./${executable}`, ...spec.args];
  steps.entry(shellLine(program), reason);
  const run = await steps.run({ command: program, traced: traced(`${OUT}/run.trace`, program) }, limits.run_timeout_s, shellLine(program), spec);
  await steps.collect('runTrace', `${OUT}/run.trace`);
  const ran = await steps.ran(run, CPP.classifyFailure);
  if (!ran.success) return ran;

  const opened = (['configureTrace', 'buildTrace', 'runTrace'] as const).flatMap((k) => parseStraceOpenedFiles(steps.artefacts[k] ?? ''));
  await session.put(OUT, { 'owned-paths.txt': dpkgQueryPaths(opened).join('\n') + '\n' });
  await steps.harness(`xargs -r -a ${OUT}/owned-paths.txt dpkg -S > ${OUT}/dpkg-owners.txt 2>/dev/null; true`, 'dpkg -S');
  await steps.collect('dpkgOwners', `${OUT}/dpkg-owners.txt`);
  // Coverage comes last, from a build and run of its own, so that the traced ones and their artefacts are untouched.
  const measured = ran.runKind === 'service' ? { notMeasured: `a service: the run was stopped at its time limit, and a program stopped so writes no .gcda` } : await measureCppCoverage(steps, limits, executable, spec);
  if ('notMeasured' in measured) steps.note(`envgap: coverage not measured: ${measured.notMeasured}`);
  return { ...steps.succeed(), runKind: ran.runKind, ...('coverage' in measured ? { coverage: measured.coverage } : {}) };
}
