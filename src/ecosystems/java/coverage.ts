import { runCoverage, type RunCoverage } from '../../domain/coverage';
import { HARNESS_DIR } from '../containerPaths';

/**
 * JaCoCo, baked into the Java image (ecosystem.ts) from Maven Central, pinned by SHA-256: the agent's
 * runtime jar and the CLI that writes the report. Its folder is no repository layout, so its classes,
 * loaded by the run, map to no artifact in D3; it is on no classpath Maven resolves (D2).
 */
export const JACOCO_VERSION = '0.8.15';
export const JACOCO_DIR = `${HARNESS_DIR}/jacoco`;
export const JACOCO_AGENT = `${JACOCO_DIR}/jacocoagent.jar`;
export const JACOCO_CLI = `${JACOCO_DIR}/jacococli.jar`;
export const JACOCO_JARS = [
  {
    path: `/org/jacoco/org.jacoco.agent/${JACOCO_VERSION}/org.jacoco.agent-${JACOCO_VERSION}-runtime.jar`,
    file: JACOCO_AGENT,
    sha256: 'fb5b0036a0899ea97edfa0fc2c7985b55f3f7c5695028163e5e60d4f3cf6075d',
  },
  {
    path: `/org/jacoco/org.jacoco.cli/${JACOCO_VERSION}/org.jacoco.cli-${JACOCO_VERSION}-nodeps.jar`,
    file: JACOCO_CLI,
    sha256: 'd2b74b20b415163c1f53261e7c5ef4445b788327094208ff821e0c2baf9bc8f1',
  },
] as const;

/** A single-file Java program for the image build (no curl in the image): `java Fetch.java REPO PATH FILE...` copies REPO + PATH to FILE. */
const FETCH_SOURCE =
  'public class Fetch { public static void main(String[] a) throws Exception { String repo = a[0].replaceAll("/+$", ""); ' +
  'for (int i = 1; i + 1 < a.length; i += 2) try (var in = java.net.URI.create(repo + a[i]).toURL().openStream()) { java.nio.file.Files.copy(in, java.nio.file.Path.of(a[i + 1])); } } }';

/**
 * The Java recipe's lines that bake JaCoCo in: from Maven Central, or the mirror the build is given
 * (`maven_repository`, ENVGAP_MAVEN_MIRROR), checked against the pinned SHA-256 sums.
 */
export const JACOCO_IMAGE_SETUP = `ARG maven_repository=https://repo1.maven.org/maven2
RUN mkdir -p ${JACOCO_DIR} && echo '${FETCH_SOURCE}' > /tmp/Fetch.java \\
 && java -Djavax.net.ssl.trustStore=/etc/ssl/certs/java/cacerts /tmp/Fetch.java "$maven_repository" ${JACOCO_JARS.map((j) => `${j.path} ${j.file}`).join(' ')} \\
 && printf '${JACOCO_JARS.map((j) => `${j.sha256}  ${j.file}\\n`).join('')}' | sha256sum -c --quiet - \\
 && rm /tmp/Fetch.java
`;

/**
 * The agent's `includes` for the project's own classes, from the class files under target/classes
 * (paths relative to it, `com/acme/App.class`): each package as `com.acme.*` (JaCoCo's `*` crosses
 * dots), each class of the default package by name. Only these are instrumented, so the dependencies
 * load as they would without the agent. Null where there is no class file.
 */
export function jacocoIncludes(classFiles: string[]): string | null {
  const patterns = new Set<string>();
  for (const raw of classFiles) {
    const file = raw.trim().replace(/^\.\//, '');
    if (!file.endsWith('.class') || file.endsWith('module-info.class')) continue;
    const slash = file.lastIndexOf('/');
    patterns.add(slash < 0 ? file.slice(0, -'.class'.length) : `${file.slice(0, slash).replace(/\//g, '.')}.*`);
  }
  return patterns.size > 0 ? [...patterns].sort().join(':') : null;
}

const SOURCE_FILE = /<sourcefile\s+name="[^"]*">([\s\S]*?)<\/sourcefile>/g;

function lineCounter(body: string): { missed: number; covered: number } {
  const m = /<counter\s+type="LINE"\s+missed="(\d+)"\s+covered="(\d+)"\s*\/>/.exec(body);
  return m ? { missed: Number(m[1]), covered: Number(m[2]) } : { missed: 0, covered: 0 };
}

/**
 * The share of the project's own Java the run executed, from JaCoCo's XML report over target/classes
 * (classes never loaded included, as missed): lines with any instruction executed of all lines with
 * code, summed over the report's source files (those with a line of code), so that a line shared by
 * a class and its lambdas or inner classes counts once. Null where the text is no such report or counts no line (classes
 * compiled without line numbers, `javac -g:none`).
 */
export function parseJacocoXml(text: string): RunCoverage | null {
  if (!/<report\b/.test(text)) return null;
  // A source file without a line of code (an interface of constants, Lombok's code alone, which JaCoCo leaves out as generated) is not counted.
  const files = [...text.matchAll(SOURCE_FILE)].map((m) => lineCounter(m[1])).filter((f) => f.missed + f.covered > 0);
  const total = files.reduce((n, f) => n + f.missed + f.covered, 0);
  const executed = files.reduce((n, f) => n + f.covered, 0);
  return runCoverage('jacoco', 'line', { total, executed, files: files.length, filesExecuted: files.filter((f) => f.covered > 0).length });
}
