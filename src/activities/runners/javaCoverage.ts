import type { RunCoverage } from '../../domain/coverage';
import { JACOCO_AGENT, JACOCO_CLI, JACOCO_DIR, JACOCO_VERSION, jacocoIncludes, parseJacocoXml } from '../../ecosystems/java/coverage';
import { shellQuote } from '../../text/shellQuote';
import { OUT, type Steps } from './steps';

const CLASSES = '/work/target/classes';
const EXEC = `${OUT}/jacoco.exec`;
const REPORT = `${OUT}/jacoco.xml`;

/**
 * The JVM option that runs the program under JaCoCo's agent (baked into the image), instrumenting the
 * project's own classes only; null where target/classes has no class (nothing to measure). The image
 * without JaCoCo is the harness's fault.
 */
export async function jacocoAgentOption<A extends string>(steps: Steps<A>): Promise<string | null> {
  const listed = await steps.harness(`test -f ${JACOCO_AGENT} && test -f ${JACOCO_CLI} && { cd ${CLASSES} 2>/dev/null && find . -name '*.class'; true; }`, `finding JaCoCo ${JACOCO_VERSION} in the image (${JACOCO_DIR}) and the project's classes`);
  const includes = jacocoIncludes(listed.output.split('\n'));
  if (includes === null) return null;
  steps.note(`envgap: run under JaCoCo ${JACOCO_VERSION}'s agent (from ${JACOCO_DIR}, baked into the image, on no Maven classpath), instrumenting ${includes}`);
  return shellQuote(`-javaagent:${JACOCO_AGENT}=destfile=${EXEC},includes=${includes}`);
}

/**
 * The share of the project's own Java the run executed, from the agent's data (written when the JVM
 * shuts down: a JVM killed at its time limit writes none) reported over target/classes; null where
 * there is none. Coverage is an account of the run, never its failure.
 */
export async function measureJavaCoverage<A extends string>(steps: Steps<A>): Promise<RunCoverage | null> {
  const report = `test -f ${EXEC} || exit 3; java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar ${JACOCO_CLI} report ${EXEC} --classfiles ${CLASSES} --xml ${REPORT} --quiet`;
  const r = await steps.session.exec(['sh', '-c', report], { step: 'setup', timeoutS: 120 });
  if (r.exitCode !== 0) return null;
  const text = await steps.session.readText(REPORT);
  return text === null ? null : parseJacocoXml(text);
}
