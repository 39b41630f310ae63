import { JAVA_DEPENDENCY_DIR, MAVEN_REPOSITORY } from '../containerPaths';
import { dependencyManifest } from '../dependencyManifest';
import type { Ecosystem } from '../ecosystem';
import { layer } from '../ecosystem';
import { classifyJavaFailure, type JavaStep } from './classify';
import { parsePom } from './manifest';
import { parseDependencyList } from './resolve';
import { mapJavaTrace } from './trace';
import { parseClassLoadLog } from './traceClassLoad';
import { JAVA_STATIC } from './staticBaseline';

/** What the Java runner stores (src/activities/runners/java.ts). */
export const JAVA_ARTEFACTS = ['buildTrace', 'dependencyList', 'runTrace', 'classLoadLog'] as const;
export type JavaArtefact = (typeof JAVA_ARTEFACTS)[number];

const MAVEN_ROOTS = [JAVA_DEPENDENCY_DIR, MAVEN_REPOSITORY];

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** ~/.m2/settings.xml sending every repository to the mirror. */
function mavenSettings(url: string): string {
  return `<settings>
  <mirrors>
    <mirror><id>envgap-mirror</id><mirrorOf>*</mirrorOf><url>${xml(url)}</url></mirror>
  </mirrors>
</settings>
`;
}

/** Java: pom.xml, Maven, D3 from the JVM's class-load log. */
export const JAVA: Ecosystem<'java', JavaArtefact, JavaStep> = {
  language: 'java',
  displayName: 'Java',
  ...dependencyManifest({ file: 'pom.xml', purlType: 'maven', parse: parsePom, fields: ['groupId', 'version', 'scope', 'optional'] }),
  artefacts: JAVA_ARTEFACTS,
  installed: { ...layer(['dependencyList'], (t) => parseDependencyList(t.need('dependencyList'))), readsProject: false },
  traced: layer(['runTrace', 'classLoadLog'], (t) => {
    t.need('runTrace');
    // Jars classes were loaded from; a jar the JVM only searched is opened but not used.
    const log = t.get('classLoadLog');
    return mapJavaTrace(log != null ? parseClassLoadLog(log) : t.opened('runTrace'), { roots: MAVEN_ROOTS });
  }),
  tracedDebianPackages: null,
  // Dependency jars that javac and Maven read, within the resolved closure.
  tracedBuild: layer(['buildTrace'], (t, installed: string[]) => {
    const closure = new Set(installed);
    return mapJavaTrace(t.opened('buildTrace'), { roots: MAVEN_ROOTS }).filter((a) => closure.has(a));
  }),
  classifyFailure: classifyJavaFailure,
  image: {
    packages: ['openjdk-17-jdk-headless', 'maven', 'ca-certificates-java'],
    setup: `RUN update-ca-certificates -f >/dev/null
ENV MAVEN_OPTS="-Djavax.net.ssl.trustStore=/etc/ssl/certs/java/cacerts -XX:+UseSerialGC -XX:TieredStopAtLevel=1"
`,
  },
  packageManager: {
    caches: [{ volume: 'envgap-maven-cache', path: '/root/.m2/repository' }],
    // Maven reads Java's keystore, which update-ca-certificates fills; no variable.
    caBundleEnv: [],
    mirror: (s) => ({ env: [], binds: [], files: s.mavenMirror ? { '/root/.m2/settings.xml': mavenSettings(s.mavenMirror) } : ({} as Record<string, string>) }),
  },
  staticBaseline: JAVA_STATIC,
};
