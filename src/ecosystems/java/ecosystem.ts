import { JAVA_DEPENDENCY_DIR, MAVEN_REPOSITORY } from '../containerPaths';
import { dependencyManifest } from '../dependencyManifest';
import type { Ecosystem } from '../ecosystem';
import { layer } from '../ecosystem';
import { classifyJavaFailure, type JavaStep } from './classify';
import { JACOCO_IMAGE_SETUP } from './coverage';
import { parsePom } from './manifest';
import { parseAggregators, tracedThroughAggregators } from './aggregators';
import { parseDependencyList, parseDependencyScopes } from './resolve';
import { TRACED_OUTSIDE_INSTALLED } from '../tracedBase';
import { mapJavaTrace } from './trace';
import { parseClassLoadLog } from './traceClassLoad';
import { JAVA_STATIC } from './staticBaseline';

/** What the Java runner stores (src/activities/runners/java.ts). */
export const JAVA_ARTEFACTS = ['buildTrace', 'dependencyList', 'runTrace', 'classLoadLog', 'classlessJars'] as const;
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

/** Java: pom.xml, Maven, D2 the run's classpath, D3 from the JVM's class-load log and the starters that brought what it loaded. */
export const JAVA: Ecosystem<'java', JavaArtefact, JavaStep> = {
  language: 'java',
  displayName: 'Java',
  ...dependencyManifest({ file: 'pom.xml', purlType: 'maven', parse: parsePom, fields: ['groupId', 'version', 'scope', 'optional'] }),
  artefacts: JAVA_ARTEFACTS,
  // The run's classpath: compile and runtime scope; test and provided scope are kept apart.
  installed: { ...layer(['dependencyList'], (t) => parseDependencyScopes(t.need('dependencyList')).classpath), readsProject: false },
  installedApart: layer(['dependencyList'], (t) => {
    const { test, provided } = parseDependencyScopes(t.need('dependencyList'));
    return { test, provided };
  }),
  traced: layer(['runTrace', 'classLoadLog'], (t) => {
    t.need('runTrace');
    // Jars classes were loaded from; a jar the JVM only searched is opened but not used.
    const log = t.get('classLoadLog');
    return mapJavaTrace(log != null ? parseClassLoadLog(log) : t.opened('runTrace'), { roots: MAVEN_ROOTS });
  }),
  tracedDebianPackages: null,
  // Dependency jars that javac and Maven read, within the resolved closure (every scope: the tests are compiled too).
  tracedBuild: layer(['buildTrace', 'dependencyList'], (t, installed: string[]) => {
    const list = t.get('dependencyList');
    const closure = new Set(list != null ? parseDependencyList(list) : installed);
    return mapJavaTrace(t.opened('buildTrace'), { roots: MAVEN_ROOTS }).filter((a) => closure.has(a));
  }),
  tracedAggregated: layer(['classlessJars'], (t, traced: string[], installed: string[]) => {
    const classless = t.get('classlessJars');
    return classless == null ? null : tracedThroughAggregators(parseAggregators(classless), traced, installed);
  }),
  tracedBase: TRACED_OUTSIDE_INSTALLED,
  classifyFailure: classifyJavaFailure,
  image: {
    packages: ['openjdk-17-jdk-headless', 'maven', 'ca-certificates-java'],
    setup: `RUN update-ca-certificates -f >/dev/null
ENV MAVEN_OPTS="-Djavax.net.ssl.trustStore=/etc/ssl/certs/java/cacerts -XX:+UseSerialGC -XX:TieredStopAtLevel=1"
${JACOCO_IMAGE_SETUP}`,
  },
  packageManager: {
    caches: [{ volume: 'envgap-maven-cache', path: '/root/.m2/repository' }],
    // Maven reads Java's keystore, which update-ca-certificates fills; no variable.
    caBundleEnv: [],
    mirror: (s) => ({ env: [], binds: [], files: s.mavenMirror ? { '/root/.m2/settings.xml': mavenSettings(s.mavenMirror) } : ({} as Record<string, string>) }),
  },
  staticBaseline: JAVA_STATIC,
};
