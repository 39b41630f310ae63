import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseDependencyList, parseDependencyScopes } from '../../../src/ecosystems/java/resolve';

// `mvn -B dependency:list` with a maven-dependency-plugin 3.x a POM pins (module names after `--`).
const CONSOLE = `[INFO] Scanning for projects...
[INFO] Downloading from central: https://repo.maven.apache.org/maven2/org/apache/commons/commons-csv/1.10.0/commons-csv-1.10.0.pom
[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/org/apache/commons/commons-csv/1.10.0/commons-csv-1.10.0.pom (20 kB at 95 kB/s)
[WARNING] The POM for com.sun.xml.bind:jaxb-impl:jar:2.3.1 is invalid, transitive dependencies (if any) will not be available, enable debug logging for more details
[INFO] 
[INFO] -----------------------< com.example:csv-report >-----------------------
[INFO] Building csv-report 1.0.0
[INFO] --------------------------------[ jar ]---------------------------------
[INFO] 
[INFO] --- maven-dependency-plugin:3.6.1:list (default-cli) @ csv-report ---
[INFO] 
[INFO] The following files have been resolved:
[INFO]    org.apache.commons:commons-csv:jar:1.10.0:compile -- module org.apache.commons.csv
[INFO]    com.fasterxml.jackson.core:jackson-databind:jar:2.15.2:compile -- module com.fasterxml.jackson.databind
[INFO]    com.fasterxml.jackson.core:jackson-annotations:jar:2.15.2:compile -- module com.fasterxml.jackson.annotation
[INFO]    com.fasterxml.jackson.core:jackson-core:jar:2.15.2:compile -- module com.fasterxml.jackson.core
[INFO]    com.google.code.findbugs:jsr305:jar:3.0.2:compile (optional) -- module jsr305 (auto)
[INFO]    org.openjfx:javafx-base:jar:linux:17.0.2:compile -- module javafx.base
[INFO]    org.openjfx:javafx-base:jar:17.0.2:compile -- module javafx.baseEmpty (auto)
[INFO]    org.slf4j:slf4j-simple:jar:2.0.9:runtime -- module org.slf4j.simple
[INFO]    org.slf4j:slf4j-api:jar:2.0.9:runtime -- module org.slf4j
[INFO]    javax.servlet:javax.servlet-api:jar:4.0.1:provided -- module javax.servlet.api (auto)
[INFO]    org.junit.jupiter:junit-jupiter-api:jar:5.10.0:test -- module org.junit.jupiter.api
[INFO]    org.opentest4j:opentest4j:jar:1.3.0:test -- module org.opentest4j
[INFO] 
[INFO] ------------------------------------------------------------------------
[INFO] BUILD SUCCESS
[INFO] ------------------------------------------------------------------------
[INFO] Total time:  1.702 s
[INFO] Finished at: 2024-05-02T09:12:44Z
[INFO] ------------------------------------------------------------------------
`;

describe('parseDependencyList', () => {
  it('returns the sorted unique artifactIds of every scope, classifiers and module suffixes dropped', () => {
    expect(parseDependencyList(CONSOLE)).toEqual([
      'commons-csv',
      'javafx-base',
      'jackson-annotations',
      'jackson-core',
      'jackson-databind',
      'javax.servlet-api',
      'jsr305',
      'junit-jupiter-api',
      'opentest4j',
      'slf4j-api',
      'slf4j-simple',
    ].sort());
  });

  it('reads Debian\'s Maven 3.8.7 as it prints with -B (plugin 2.8, colour resets included)', () => {
    const real = `\x1b[0m\x1b[0m[INFO] Scanning for projects...
[INFO] 
[INFO] -----------------------< com.example:json-tool >------------------------
[INFO] Building json-tool 1.0-SNAPSHOT
[INFO] --------------------------------[ jar ]---------------------------------
[INFO] 
[INFO] --- maven-dependency-plugin:2.8:list (default-cli) @ json-tool ---
[INFO] 
[INFO] The following files have been resolved:
[INFO]    junit:junit:jar:4.13.2:test
[INFO]    org.hamcrest:hamcrest-core:jar:1.3:test
[INFO]    com.google.code.gson:gson:jar:2.10.1:compile
[INFO] 
[INFO] ------------------------------------------------------------------------
[INFO] BUILD SUCCESS
[INFO] ------------------------------------------------------------------------
[INFO] Total time:  3.492 s
[INFO] Finished at: 2026-11-30T11:31:14Z
[INFO] ------------------------------------------------------------------------
\x1b[0m\x1b[0m`;
    expect(parseDependencyList(real)).toEqual(['gson', 'hamcrest-core', 'junit']);
  });

  it('reads the file -DoutputFile writes (plugin 2.8, as the runner collects it)', () => {
    const file = `
The following files have been resolved:
   junit:junit:jar:4.13.2:test
   org.hamcrest:hamcrest-core:jar:1.3:test
   com.google.code.gson:gson:jar:2.10.1:compile

`;
    expect(parseDependencyList(file)).toEqual(['gson', 'hamcrest-core', 'junit']);
  });

  it('reads the file -DoutputFile writes with plugin 3.x', () => {
    const file = `
The following files have been resolved:
   com.google.code.gson:gson:jar:2.10.1:compile -- module com.google.gson
   info.picocli:picocli:jar:4.7.5:compile -- module info.picocli
`;
    expect(parseDependencyList(file)).toEqual(['gson', 'picocli']);
  });

  it('reads the plugin 2.8 format (no module names) and absolute artifact file names', () => {
    const old = `[INFO] --- maven-dependency-plugin:2.8:list (default-cli) @ app ---
[INFO] 
[INFO] The following files have been resolved:
[INFO]    junit:junit:jar:4.13.2:test
[INFO]    org.hamcrest:hamcrest-core:jar:1.3:test
[INFO]    org.xerial:sqlite-jdbc:jar:3.43.0.0:compile:/root/.m2/repository/org/xerial/sqlite-jdbc/3.43.0.0/sqlite-jdbc-3.43.0.0.jar
[INFO] 
`;
    expect(parseDependencyList(old)).toEqual(['hamcrest-core', 'junit', 'sqlite-jdbc']);
  });

  it('strips ANSI colours of an interactive run', () => {
    const coloured = `[\x1b[1;34mINFO\x1b[m] The following files have been resolved:
[\x1b[1;34mINFO\x1b[m]    com.google.guava:guava:jar:32.1.2-jre:compile -- module com.google.common
[\x1b[1;34mINFO\x1b[m]    com.google.guava:failureaccess:jar:1.0.1:compile -- module failureaccess (auto)
[\x1b[1;34mINFO\x1b[m] \x1b[1m------------------------------------------------------------------------\x1b[m
[\x1b[1;34mINFO\x1b[m] \x1b[1;32mBUILD SUCCESS\x1b[m
`;
    expect(parseDependencyList(coloured)).toEqual(['failureaccess', 'guava']);
  });

  it('is empty for a project without dependencies, and for CRLF files', () => {
    expect(parseDependencyList(`[INFO] The following files have been resolved:\n[INFO]    none\n[INFO] \n[INFO] BUILD SUCCESS\n`)).toEqual([]);
    expect(parseDependencyList('\r\nThe following files have been resolved:\r\n   none\r\n')).toEqual([]);
    expect(parseDependencyList('\r\nThe following files have been resolved:\r\n   org.json:json:jar:20231013:compile -- module org.json (auto)\r\n')).toEqual(['json']);
    expect(parseDependencyList('')).toEqual([]);
  });

  it('never takes coordinates from warnings, errors or download lines', () => {
    const noise = `[WARNING] The POM for org.foo:bar:jar:1.0:compile is missing, no dependency information available
[ERROR] Failed to execute goal on project app: Could not resolve dependencies for project com.example:app:jar:1.0: Could not find artifact org.foo:bar:jar:1.0 in central (https://repo.maven.apache.org/maven2) -> [Help 1]
[INFO] Downloading from central: https://repo.maven.apache.org/maven2/org/foo/bar/1.0/bar-1.0.pom
`;
    expect(parseDependencyList(noise)).toEqual([]);
  });
});

describe('parseDependencyScopes', () => {
  it('splits a real Spring Boot service\'s list: the run classpath (D2), and the test scope kept apart', () => {
    const list = fs.readFileSync(path.join(__dirname, '../../fixtures/outputs/java-spring-boot-todo/dependencies.txt'), 'utf8');
    const scopes = parseDependencyScopes(list);
    expect(scopes.classpath).toHaveLength(40);
    expect(scopes.classpath).toEqual(expect.arrayContaining(['spring-boot-starter-web', 'spring-webmvc', 'lombok', 'slf4j-api', 'spring-core']));
    expect(scopes.test).toHaveLength(29);
    expect(scopes.test).toEqual(expect.arrayContaining(['spring-boot-starter-test', 'junit-jupiter', 'mockito-core', 'assertj-core', 'spring-test']));
    expect(scopes.provided).toEqual([]);
    expect(scopes.classpath.length + scopes.test.length).toBe(parseDependencyList(list).length);
  });

  it('keeps provided and system scope apart too, and puts a name listed in two scopes in the widest', () => {
    expect(parseDependencyScopes(CONSOLE)).toEqual({
      classpath: ['commons-csv', 'jackson-annotations', 'jackson-core', 'jackson-databind', 'javafx-base', 'jsr305', 'slf4j-api', 'slf4j-simple'],
      test: ['junit-jupiter-api', 'opentest4j'],
      provided: ['javax.servlet-api'],
    });
    const twice = '   io.netty:netty-transport-native-epoll:jar:linux-x86_64:4.1.100.Final:test\n   io.netty:netty-transport-native-epoll:jar:4.1.100.Final:runtime\n   com.oracle:ojdbc:jar:8:system\n';
    expect(parseDependencyScopes(twice)).toEqual({ classpath: ['netty-transport-native-epoll'], test: [], provided: ['ojdbc'] });
  });
});
