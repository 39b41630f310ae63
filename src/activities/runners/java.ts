import type { ProjectFiles } from '../../domain/files';
import { JAVA_DEPENDENCY_DIR, MAVEN_REPOSITORY } from '../../ecosystems/containerPaths';
import type { ContainerLimits } from '../../domain/study';
import { JAVA, type JavaArtefact } from '../../ecosystems/java/ecosystem';
import { chooseJavaMainClass } from '../../ecosystems/java/entry';
import type { Sandbox } from '../../sandbox';
import { shellQuote } from '../../text/shellQuote';
import type { RunSpec } from '../../domain/runSpec';
import { NO_RUN_SPEC, OUT, shellLine, Steps, traced, type RunnerResult } from './steps';
import { installSystemPackages } from './system';
import { EXEC_MARK } from '../../infra/execWrapper';
import { CLASSLESS_JARS_FILE, CLASSLESS_JARS_SOURCE } from './javaClasslessJars';
import { jacocoAgentOption, measureJavaCoverage } from './javaCoverage';
import { MAVEN_AS_OF_FILE, MAVEN_AS_OF_PORT, MAVEN_AS_OF_SOURCE, mavenAsOfSettings } from './mavenAsOf';
import type { RunnerOptions } from './resolution';
import { resolutionCutoff } from '../../domain/resolveAsOf';

const PLAIN_MVN = ['mvn', '-B', '-ntp'];

/**
 * Execute for Java (Maven): apt.txt; `mvn package`, which also copies the runtime dependencies in
 * repository layout (group/artifact/version/artifact-version.jar) under target/dependency, traced as
 * the build; `mvn dependency:list` for the resolved closure; then the main class run with
 * target/classes and each dependency jar on the classpath (no fat jar: every jar is its own file in
 * the trace), logging the jar each class is loaded from; after a successful run, the dependency jars
 * with no class (starters) and their POMs, so that a starter whose dependencies were loaded counts as
 * traced. The run is under JaCoCo's agent (src/activities/runners/javaCoverage.ts) for the share of
 * the project's own code it executed. Artefacts: buildTrace, dependencyList, runTrace, classLoadLog, classlessJars.
 * With a date (`options.resolveAsOf`), Maven resolves through a date-filtered view of the repository
 * (src/activities/runners/mavenAsOf.ts) that the harness starts in the sandbox before the build.
 */
export async function runJava(session: Sandbox<ContainerLimits>, files: ProjectFiles, limits: ContainerLimits, spec: RunSpec = NO_RUN_SPEC, options: RunnerOptions = {}): Promise<RunnerResult<JavaArtefact>> {
  const steps = new Steps<JavaArtefact>(session);
  await steps.start(files, { [CLASSLESS_JARS_FILE]: CLASSLESS_JARS_SOURCE, ...(options.resolveAsOf ? { [MAVEN_AS_OF_FILE]: MAVEN_AS_OF_SOURCE, 'maven-as-of-settings.xml': mavenAsOfSettings(options.resolveAsOf) } : {}) });
  const system = await installSystemPackages(steps, files, limits);
  if (system) return system;
  if (!(JAVA.manifestFile in files)) return steps.fail('build', 'Build', `envgap: no ${JAVA.manifestFile} at the top of the project`, null);
  const mvn = options.resolveAsOf ? await startMavenAsOf(steps, options.resolveAsOf) : PLAIN_MVN;

  const pkg = [...mvn, 'package', 'dependency:copy-dependencies', '-DskipTests', '-Dmdep.useRepositoryLayout=true', '-DincludeScope=runtime', `-DoutputDirectory=${JAVA_DEPENDENCY_DIR}`];
  const build = await steps.exec('build', traced(`${OUT}/build.trace`, pkg), limits.install_timeout_s, pkg.join(' '));
  await steps.collect('buildTrace', `${OUT}/build.trace`);
  if (options.resolveAsOf) await noteMavenAsOfRefusals(steps);
  if (build.exitCode !== 0) return steps.failure('build', build, JAVA.classifyFailure);

  const list = await steps.exec('build', [...mvn, 'dependency:list', `-DoutputFile=${OUT}/dependencies.txt`], limits.install_timeout_s);
  if (list.exitCode !== 0) return steps.failure('build', list, JAVA.classifyFailure);
  await steps.collect('dependencyList', `${OUT}/dependencies.txt`);

  const { entry: main, reason } = chooseJavaMainClass(files);
  if (!main) {
    steps.note(`envgap: ${reason}`);
    return steps.fail('run', 'Other', `envgap: ${reason}`, null);
  }
  const classpath = `target/classes$(find ${JAVA_DEPENDENCY_DIR} -name '*.jar' 2>/dev/null | sort | sed 's/^/:/' | tr -d '\\n')`;
  const java = ['java', `-Xlog:class+load=info:file=${OUT}/classload.txt`, '-cp', `"${classpath}"`, main, ...spec.args.map(shellQuote)];
  // The traced run is the one measured: JaCoCo's agent goes on its JVM only.
  const agent = await jacocoAgentOption(steps);
  const measured = agent === null ? java : [java[0], agent, ...java.slice(1)];
  // The classpath is the shell's to expand; strace goes inside the shell, so that only the JVM is traced.
  const program = { command: ['sh', '-c', `exec ${java.join(' ')}`], traced: ['sh', '-c', `exec ${traced(`${OUT}/run.trace`, measured).join(' ')}`] };
  const shown = [`java -cp target/classes:<dependency jars> ${main}`, ...(spec.args.length > 0 ? [shellLine(spec.args)] : [])].join(' ');
  steps.entry(shown, reason);
  const run = await steps.run(program, limits.run_timeout_s, shown, spec);
  await steps.collect('runTrace', `${OUT}/run.trace`);
  await steps.collect('classLoadLog', `${OUT}/classload.txt`);
  const coverage = agent === null ? null : await measureJavaCoverage(steps);
  const result = await steps.ran(run, JAVA.classifyFailure);
  if (!result.success) return coverage ? { ...result, coverage } : result;
  await collectClasslessJars(steps);
  return { ...result, artefacts: steps.artefacts, ...(coverage ? { coverage } : {}) };
}

/**
 * Starts the date-filtered view on the container's loopback (it relays to the mirror ~/.m2/settings.xml
 * names, else Maven Central) and returns Maven's command with the settings that send every repository
 * to it (`-U`: a failure an earlier view left cached in the shared local repository is retried). Waits
 * for its "ready" line through a FIFO, so the step ends once it listens; its log, with each file it
 * refused, is OUT/maven-as-of.log. It is started without the exec's mark, which would have it killed
 * when the starting step ends; the run's seal kills it with the build's other leftovers.
 * Starting it is the harness's step: its failure is a fault of the harness.
 */
async function startMavenAsOf(steps: Steps<JavaArtefact>, date: string): Promise<string[]> {
  const ready = `${OUT}/maven-as-of.ready`;
  const log = `${OUT}/maven-as-of.log`;
  const java = `java -Djavax.net.ssl.trustStore=/etc/ssl/certs/java/cacerts ${OUT}/${MAVEN_AS_OF_FILE} serve ${resolutionCutoff(date)} ${MAVEN_AS_OF_PORT} /root/.m2/settings.xml`;
  await steps.harness(
    `rm -f ${ready} && mkfifo ${ready} && (env -u ${EXEC_MARK} setsid ${java} > ${ready} 2> ${log} < /dev/null &) && read -r line < ${ready} && [ "$line" = ready ] || { cat ${log}; exit 1; }`,
    `starting the Maven repository view as of ${date}`,
  );
  steps.note(`envgap: Maven resolves through a view of the repository as of ${resolutionCutoff(date)} (versions published before it; docs/resolution.md)`);
  return [...PLAIN_MVN, '-U', '-s', `${OUT}/maven-as-of-settings.xml`];
}

/** What the date-filtered view refused (files of versions published after the date) or failed to relay, in the log. */
async function noteMavenAsOfRefusals(steps: Steps<JavaArtefact>): Promise<void> {
  const r = await steps.harness(`grep -E '^(refused|failed) ' ${OUT}/maven-as-of.log | head -n 50 || true`, 'reading the Maven repository view\'s log');
  for (const line of r.output.split('\n').filter((l) => l.trim() !== '')) steps.note(`envgap: maven view as of the date: ${line.trim()}`);
}

/** The classless dependency jars with their POMs; where the listing fails, none (the starters then stay untraced, as before). */
async function collectClasslessJars(steps: Steps<JavaArtefact>): Promise<void> {
  const out = `${OUT}/classless.jsonl`;
  await steps.harness(`java ${OUT}/${CLASSLESS_JARS_FILE} ${JAVA_DEPENDENCY_DIR} ${MAVEN_REPOSITORY} > ${out} 2> ${OUT}/classless.err || rm -f ${out}`, 'listing the dependency jars without classes');
  await steps.collect('classlessJars', out);
}
