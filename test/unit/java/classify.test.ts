import * as fs from 'node:fs';
import * as path from 'node:path';
import { classifyJavaFailure } from '../../../src/ecosystems/java/classify';
import { resourceLimitHit } from '../../../src/ecosystems/resourceLimits';

const build = (output: string) => classifyJavaFailure({ step: 'build', exitCode: 1, timedOut: false, output });
const run = (output: string, exitCode: number | null = 1, projectPackages?: string[]) =>
  classifyJavaFailure({ step: 'run', exitCode, timedOut: false, output, projectPackages });

const HEADER = `[INFO] Scanning for projects...
[INFO] 
[INFO] -----------------------< com.example:json-tool >------------------------
[INFO] Building json-tool 1.0-SNAPSHOT
[INFO] --------------------------------[ jar ]---------------------------------
`;
const FAILURE = `[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[INFO] Total time:  2.114 s
[INFO] Finished at: 2024-05-02T09:14:03Z
[INFO] ------------------------------------------------------------------------
`;
const HELP = `[ERROR] 
[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.
[ERROR] Re-run Maven using the -X switch to enable full debug logging.
[ERROR] 
[ERROR] For more information about the errors and possible solutions, please read the following articles:
[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/DependencyResolutionException
`;

// Maven 3.8.7, OpenJDK 17.
const MVN = {
  notFound: `${HEADER}[WARNING] The POM for com.google.code.gson:gson:jar:2.99.0 is missing, no dependency information available
${FAILURE}[ERROR] Failed to execute goal on project json-tool: Could not resolve dependencies for project com.example:json-tool:jar:1.0-SNAPSHOT: Could not find artifact com.google.code.gson:gson:jar:2.99.0 in central (https://repo.maven.apache.org/maven2) -> [Help 1]
${HELP}`,
  cachedNotFound: `${HEADER}${FAILURE}[ERROR] Failed to execute goal on project json-tool: Could not resolve dependencies for project com.example:json-tool:jar:1.0-SNAPSHOT: Failure to find org.json:json:jar:2023.0101 in https://repo.maven.apache.org/maven2 was cached in the local repository, resolution will not be reattempted until the update interval of central has elapsed or updates are forced -> [Help 1]
${HELP}`,
  parentNotFound: `[INFO] Scanning for projects...
[ERROR] [ERROR] Some problems were encountered while processing the POMs:
[FATAL] Non-resolvable parent POM for com.example:api:1.0.0: Could not find artifact org.springframework.boot:spring-boot-starter-parent:pom:4.9.0 in central (https://repo.maven.apache.org/maven2) and 'parent.relativePath' points at no local POM @ line 6, column 13
 @ 
[ERROR] The build could not read 1 project -> [Help 1]
[ERROR]   
[ERROR]   The project com.example:api:1.0.0 (/work/pom.xml) has 1 error
[ERROR]     Non-resolvable parent POM for com.example:api:1.0.0: Could not find artifact org.springframework.boot:spring-boot-starter-parent:pom:4.9.0 in central (https://repo.maven.apache.org/maven2) and 'parent.relativePath' points at no local POM @ line 6, column 13 -> [Help 2]
`,
  unknownHost: `${HEADER}${FAILURE}[ERROR] Failed to execute goal on project json-tool: Could not resolve dependencies for project com.example:json-tool:jar:1.0-SNAPSHOT: Failed to collect dependencies at com.google.code.gson:gson:jar:2.10.1: Failed to read artifact descriptor for com.google.code.gson:gson:jar:2.10.1: Could not transfer artifact com.google.code.gson:gson:pom:2.10.1 from/to central (https://repo.maven.apache.org/maven2): transfer failed for https://repo.maven.apache.org/maven2/com/google/code/gson/gson/2.10.1/gson-2.10.1.pom: Unknown host repo.maven.apache.org: Temporary failure in name resolution -> [Help 1]
${HELP}`,
  pkix: `${HEADER}${FAILURE}[ERROR] Plugin org.apache.maven.plugins:maven-resources-plugin:2.6 or one of its dependencies could not be resolved: Failed to read artifact descriptor for org.apache.maven.plugins:maven-resources-plugin:jar:2.6: Could not transfer artifact org.apache.maven.plugins:maven-resources-plugin:pom:2.6 from/to central (https://repo.maven.apache.org/maven2): PKIX path building failed: sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path to requested target -> [Help 1]
${HELP}`,
  unreachable: `${HEADER}${FAILURE}[ERROR] Failed to execute goal on project json-tool: Could not resolve dependencies for project com.example:json-tool:jar:1.0-SNAPSHOT: Failed to collect dependencies at info.picocli:picocli:jar:4.7.5: Failed to read artifact descriptor for info.picocli:picocli:jar:4.7.5: Could not transfer artifact info.picocli:picocli:pom:4.7.5 from/to central (https://repo.maven.apache.org/maven2): Connect to repo.maven.apache.org:443 [repo.maven.apache.org/146.75.116.215] failed: Network is unreachable (connect failed) -> [Help 1]
${HELP}`,
  httpBlocked: `${HEADER}${FAILURE}[ERROR] Failed to execute goal on project legacy: Could not resolve dependencies for project com.example:legacy:jar:1.0: Failed to collect dependencies at org.jboss:jboss-common:jar:2.0: Failed to read artifact descriptor for org.jboss:jboss-common:jar:2.0: Could not transfer artifact org.jboss:jboss-common:pom:2.0 from/to maven-default-http-blocker (http://0.0.0.0/): Blocked mirror for repositories: [jboss (http://repository.jboss.org/maven2, default, releases+snapshots)] -> [Help 1]
`,
  notParseable: `[INFO] Scanning for projects...
[ERROR] [ERROR] Some problems were encountered while processing the POMs:
[FATAL] Non-parseable POM /work/pom.xml: end tag name </dependencies> must match start tag name <dependency> from line 20 (position: TEXT seen ...</version>\\n        </dependencies>... @24:24)  @ line 24, column 24
 @ 
[ERROR] The build could not read 1 project -> [Help 1]
`,
  missingVersion: `[INFO] Scanning for projects...
[ERROR] [ERROR] Some problems were encountered while processing the POMs:
[ERROR] 'dependencies.dependency.version' for org.json:json:jar is missing. @ line 18, column 17
 @ 
[ERROR] The build could not read 1 project -> [Help 1]
`,
  missingPackage: `${HEADER}[INFO] 
[INFO] --- maven-compiler-plugin:3.11.0:compile (default-compile) @ json-tool ---
[INFO] Changes detected - recompiling the module! :source
[INFO] Compiling 2 source files with javac [debug target 17] to target/classes
[INFO] -------------------------------------------------------------
[ERROR] COMPILATION ERROR : 
[INFO] -------------------------------------------------------------
[ERROR] /work/src/main/java/com/example/jsontool/App.java:[3,24] package com.google.gson does not exist
[ERROR] /work/src/main/java/com/example/jsontool/App.java:[12,9] cannot find symbol
  symbol:   class Gson
  location: class com.example.jsontool.App
[INFO] 2 errors 
[INFO] -------------------------------------------------------------
${FAILURE}[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project json-tool: Compilation failure: Compilation failure: 
[ERROR] /work/src/main/java/com/example/jsontool/App.java:[3,24] package com.google.gson does not exist
[ERROR] /work/src/main/java/com/example/jsontool/App.java:[12,9] cannot find symbol
[ERROR]   symbol:   class Gson
[ERROR]   location: class com.example.jsontool.App
[ERROR] -> [Help 1]
`,
  missingJaxb: `[ERROR] COMPILATION ERROR : 
[ERROR] /work/src/main/java/com/example/Report.java:[5,22] package javax.xml.bind does not exist
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.1:compile (default-compile) on project report: Compilation failure
`,
  missingTestFramework: `[INFO] --- maven-compiler-plugin:3.11.0:testCompile (default-testCompile) @ json-tool ---
[ERROR] COMPILATION ERROR : 
[ERROR] /work/src/test/java/com/example/jsontool/AppTest.java:[3,36] package org.junit.jupiter.api does not exist
[ERROR] /work/src/test/java/com/example/jsontool/AppTest.java:[5,1] cannot find symbol
  symbol:   class Test
  location: class com.example.jsontool.AppTest
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:testCompile (default-testCompile) on project json-tool: Compilation failure: Compilation failure: 
`,
  missingClassInPackage: `[ERROR] COMPILATION ERROR : 
[ERROR] /work/src/main/java/com/example/App.java:[4,31] cannot find symbol
  symbol:   class CSVFormatBuilder
  location: package org.apache.commons.csv
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project csv: Compilation failure
`,
  missingSupertype: `[ERROR] COMPILATION ERROR : 
[ERROR] /work/src/main/java/com/example/App.java:[10,15] cannot access org.slf4j.Logger
  class file for org.slf4j.Logger not found
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project app: Compilation failure
`,
  missingProjectPackage: `[ERROR] COMPILATION ERROR : 
[ERROR] /work/src/main/java/com/example/app/Main.java:[3,26] package com.example.model does not exist
[ERROR] /work/src/main/java/com/example/app/Main.java:[9,9] cannot find symbol
  symbol:   class Record
  location: class com.example.app.Main
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project app: Compilation failure: Compilation failure: 
`,
  typeError: `[ERROR] COMPILATION ERROR : 
[ERROR] /work/src/main/java/com/example/App.java:[15,24] incompatible types: java.lang.String cannot be converted to int
[ERROR] /work/src/main/java/com/example/App.java:[21,13] cannot find symbol
  symbol:   method splitWords(java.lang.String)
  location: class com.example.App
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project app: Compilation failure
`,
  oldSource: `[INFO] --- maven-compiler-plugin:3.1:compile (default-compile) @ app ---
[INFO] Changes detected - recompiling the module!
[INFO] Compiling 1 source file to /work/target/classes
[INFO] -------------------------------------------------------------
[ERROR] COMPILATION ERROR : 
[INFO] -------------------------------------------------------------
[ERROR] Source option 5 is no longer supported. Use 7 or later.
[ERROR] Target option 5 is no longer supported. Use 7 or later.
[INFO] 2 errors 
`,
  releaseTooNew: `[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project app: Fatal error compiling: error: release version 21 not supported -> [Help 1]
`,
};

describe('classifyJavaFailure: build', () => {
  it('classes an artifact the repository does not have as MissingDep', () => {
    expect(build(MVN.notFound)).toBe('MissingDep');
    expect(build(MVN.cachedNotFound)).toBe('MissingDep');
    expect(build(MVN.parentNotFound)).toBe('MissingDep');
  });

  it('classes network and TLS faults as FetchFail', () => {
    expect(build(MVN.unknownHost)).toBe('FetchFail');
    expect(build(MVN.pkix)).toBe('FetchFail');
    expect(build(MVN.unreachable)).toBe('FetchFail');
    expect(build(MVN.httpBlocked)).toBe('FetchFail');
  });

  it('classes an unreadable POM as Build, before any resolution message', () => {
    expect(build(MVN.notParseable)).toBe('Build');
    expect(build(MVN.missingVersion)).toBe('Build');
    expect(build('[FATAL] Malformed POM /work/pom.xml: Unrecognised tag: \'dependency\' (position: START_TAG seen ...) @ line 12\nCould not resolve dependencies')).toBe('Build');
  });

  it('classes javac missing an outside package or class as MissingDep', () => {
    expect(build(MVN.missingPackage)).toBe('MissingDep');
    expect(build(MVN.missingJaxb)).toBe('MissingDep');
    expect(build(MVN.missingTestFramework)).toBe('MissingDep');
    expect(build(MVN.missingSupertype)).toBe('MissingDep');
  });

  it('classes cannot find symbol in a package javac found (its jar is on the classpath) as Build', () => {
    expect(build(MVN.missingClassInPackage)).toBe('Build');
    // As Maven repeats it in the summary, every line prefixed.
    const summary = `[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project csv: Compilation failure
[ERROR] /work/src/main/java/com/example/App.java:[4,31] cannot find symbol
[ERROR]   symbol:   class CSVFormatBuilder
[ERROR]   location: package org.apache.commons.csv
[ERROR] -> [Help 1]
`;
    expect(build(summary)).toBe('Build');
    // A package that does not exist next to it is still a missing dependency.
    const both = MVN.missingClassInPackage.replace('[ERROR] Failed', '[ERROR] /work/src/main/java/com/example/App.java:[5,24] package com.google.gson does not exist\n[ERROR] Failed');
    expect(build(both)).toBe('MissingDep');
  });

  it('classes other compilation errors, the project\'s own packages and JDK packages as Build', () => {
    expect(build(MVN.missingProjectPackage)).toBe('Build');
    expect(build(MVN.typeError)).toBe('Build');
    expect(build(MVN.oldSource)).toBe('Build');
    expect(build('[ERROR] COMPILATION ERROR : \n[ERROR] /work/src/main/java/app/Main.java:[3,1] package java.utils does not exist\n')).toBe('Build');
  });

  it('lets a compilation failure win over network warnings logged before it', () => {
    const output = `[WARNING] Could not transfer metadata com.example:lib:1.0-SNAPSHOT/maven-metadata.xml from/to snapshots (https://oss.sonatype.org/content/repositories/snapshots): transfer failed for https://oss.sonatype.org/...: Connection refused\n${MVN.typeError}`;
    expect(build(output)).toBe('Build');
  });

  it('classes anything else as Build', () => {
    expect(build(MVN.releaseTooNew)).toBe('Build');
    expect(build('[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0\n[ERROR] There are test failures.\n')).toBe('Build');
    expect(build('')).toBe('Build');
  });
});

const RUN = {
  noClassDef: `Exception in thread "main" java.lang.NoClassDefFoundError: com/google/gson/Gson
	at com.example.jsontool.App.main(App.java:9)
Caused by: java.lang.ClassNotFoundException: com.google.gson.Gson
	at java.base/jdk.internal.loader.BuiltinClassLoader.loadClass(BuiltinClassLoader.java:641)
	at java.base/jdk.internal.loader.ClassLoaders$AppClassLoader.loadClass(ClassLoaders.java:188)
	at java.base/java.lang.ClassLoader.loadClass(ClassLoader.java:525)
	... 1 more
`,
  mainNotFound: `Error: Could not find or load main class com.example.Main
Caused by: java.lang.ClassNotFoundException: com.example.Main
`,
  mainSuperclassMissing: `Error: Could not find or load main class com.example.ui.App
Caused by: java.lang.NoClassDefFoundError: javafx/application/Application
`,
  javafx: 'Error: JavaFX runtime components are missing, and are required to run this application\n',
  jdbc: `Exception in thread "main" java.sql.SQLException: No suitable driver found for jdbc:sqlite:notes.db
	at java.sql/java.sql.DriverManager.getConnection(DriverManager.java:708)
	at java.sql/java.sql.DriverManager.getConnection(DriverManager.java:253)
	at com.example.notes.Store.open(Store.java:14)
	at com.example.notes.Main.main(Main.java:8)
`,
  jdbcForName: `java.lang.ClassNotFoundException: org.postgresql.Driver
	at java.base/jdk.internal.loader.BuiltinClassLoader.loadClass(BuiltinClassLoader.java:641)
	at java.base/java.lang.Class.forName0(Native Method)
	at java.base/java.lang.Class.forName(Class.java:375)
	at com.example.db.Main.main(Main.java:11)
`,
  projectClassMissing: `Exception in thread "main" java.lang.NoClassDefFoundError: com/example/model/Record
	at com.example.app.Main.main(Main.java:5)
Caused by: java.lang.ClassNotFoundException: com.example.model.Record
	at java.base/jdk.internal.loader.BuiltinClassLoader.loadClass(BuiltinClassLoader.java:641)
	... 1 more
`,
  nativeLibrary: `Exception in thread "main" java.lang.UnsatisfiedLinkError: /usr/lib/jvm/java-17-openjdk-amd64/lib/libfontmanager.so: libfreetype.so.6: cannot open shared object file: No such file or directory
	at java.base/jdk.internal.loader.NativeLibraries.load(Native Method)
	at java.base/jdk.internal.loader.NativeLibraries$NativeLibraryImpl.open(NativeLibraries.java:388)
	at java.desktop/sun.font.FontManagerNativeLibrary$1.run(FontManagerNativeLibrary.java:38)
	at com.example.chart.Main.main(Main.java:20)
`,
  jna: `Exception in thread "main" java.lang.UnsatisfiedLinkError: Unable to load library 'sodium':
libsodium.so: cannot open shared object file: No such file or directory
`,
  heap: `Exception in thread "main" java.lang.OutOfMemoryError: Java heap space
	at java.base/java.util.Arrays.copyOf(Arrays.java:3537)
	at com.example.Main.main(Main.java:14)
`,
  programMissing: `Exception in thread "main" java.io.IOException: Cannot run program "nmap": error=2, No such file or directory
	at java.base/java.lang.ProcessBuilder.start(ProcessBuilder.java:1143)
	at java.base/java.lang.ProcessBuilder.start(ProcessBuilder.java:1073)
	at com.example.scan.Scanner.scan(Scanner.java:22)
	at com.example.scan.Main.main(Main.java:9)
Caused by: java.io.IOException: error=2, No such file or directory
	at java.base/java.lang.ProcessImpl.forkAndExec(Native Method)
	at java.base/java.lang.ProcessImpl.<init>(ProcessImpl.java:314)
	at java.base/java.lang.ProcessImpl.start(ProcessImpl.java:244)
	at java.base/java.lang.ProcessBuilder.start(ProcessBuilder.java:1110)
	... 3 more
`,
  ownScriptMissing: `Exception in thread "main" java.io.IOException: Cannot run program "./convert.sh" (in directory "/work"): error=2, No such file or directory
	at java.base/java.lang.ProcessBuilder.start(ProcessBuilder.java:1143)
	at com.example.Main.main(Main.java:9)
`,
  exception: `Exception in thread "main" java.lang.IllegalArgumentException: input file not given
	at com.example.Main.main(Main.java:7)
`,
};

describe('classifyJavaFailure: run', () => {
  it('classes a class missing from outside the project as MissingDep', () => {
    expect(run(RUN.noClassDef)).toBe('MissingDep');
    expect(run(RUN.mainSuperclassMissing)).toBe('MissingDep');
    expect(run(RUN.javafx)).toBe('MissingDep');
    expect(run(RUN.jdbc)).toBe('MissingDep');
    expect(run(RUN.jdbcForName)).toBe('MissingDep');
  });

  it('classes the project\'s own missing classes as Runtime', () => {
    expect(run(RUN.mainNotFound)).toBe('Runtime');
    expect(run(RUN.projectClassMissing)).toBe('Runtime');
    expect(run(RUN.noClassDef, 1, ['com.google.gson'])).toBe('Runtime');
    expect(run(RUN.projectClassMissing, 1, ['org.other'])).toBe('MissingDep');
  });

  it('classes native libraries that do not load as SystemLib', () => {
    expect(run(RUN.nativeLibrary)).toBe('SystemLib');
    expect(run(RUN.jna)).toBe('SystemLib');
    expect(run(RUN.programMissing)).toBe('SystemLib');
    expect(run('sh: 1: ffmpeg: not found\nException in thread "main" java.lang.IllegalStateException: ffmpeg exited with 127\n\tat com.example.Main.main(Main.java:12)\n')).toBe('SystemLib');
    expect(run(RUN.ownScriptMissing)).toBe('Runtime');
  });

  it('classes what the machine cannot give as Environment, before its own rules', () => {
    expect(run('Exception in thread "main" java.net.UnknownHostException: api.exchangerate.host\n\tat java.base/sun.nio.ch.NioSocketImpl.connect(NioSocketImpl.java:567)\n\tat com.example.rates.Main.main(Main.java:18)\n')).toBe('Environment');
    expect(run('Exception in thread "main" org.postgresql.util.PSQLException: Connection to localhost:5432 refused. Check that the hostname and port are correct and that the postmaster is accepting TCP/IP connections.\n\tat com.example.db.Main.main(Main.java:11)\n')).toBe('Environment');
  });

  it('classes the AWS SDK for Java 1.x without credentials (a real run) as Environment, not Runtime', () => {
    const output = fs.readFileSync(path.join(__dirname, '../../fixtures/outputs/java-aws-sdk-v1/output.txt'), 'utf8');
    expect(output).toContain('java.lang.IllegalArgumentException: profile file cannot be null');
    expect(run(output)).toBe('Environment');
  });

  it('classes out of memory, a kill and other exceptions as Runtime', () => {
    expect(run(RUN.heap)).toBe('Runtime');
    expect(run('', 137)).toBe('Runtime');
    expect(run(`${RUN.noClassDef}\nenvgap: the container was killed for exceeding its memory limit (OOMKilled)`, 137)).toBe('Runtime');
    expect(run(RUN.exception)).toBe('Runtime');
  });
});

describe('classifyJavaFailure: system and timeouts', () => {
  it('classes apt-get failures as apt failures are', () => {
    const system = (output: string) => classifyJavaFailure({ step: 'system', exitCode: 100, timedOut: false, output });
    expect(system('Reading package lists...\nBuilding dependency tree...\nReading state information...\nE: Unable to locate package libjava-sqlite\n')).toBe('MissingDep');
    expect(system("Err:1 http://deb.debian.org/debian bookworm/main amd64 libfreetype6 amd64 2.12.1+dfsg-5\n  Temporary failure resolving 'deb.debian.org'\n")).toBe('FetchFail');
  });

  it('classes any timed-out step as Timeout', () => {
    for (const step of ['system', 'build', 'run'] as const) {
      expect(classifyJavaFailure({ step, exitCode: null, timedOut: true, output: MVN.notFound })).toBe('Timeout');
    }
  });
});

// OpenJDK 17 in the java image, threads started in a loop at --pids-limit 64.
const THREAD_LIMIT = `[0.133s][warning][os,thread] Failed to start thread "Unknown thread" - pthread_create failed (EAGAIN) for attributes: stacksize: 1024k, guardsize: 0k, detached.
[0.133s][warning][os,thread] Failed to start the native thread for java.lang.Thread "Thread-49"
Exception in thread "main" java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory or process/resource limits reached
	at java.base/java.lang.Thread.start0(Native Method)
	at java.base/java.lang.Thread.start(Thread.java:809)
	at Main.main(Main.java:3)
`;

describe('resource limits (src/ecosystems/resourceLimits.ts, classed before these rules)', () => {
  it('a thread refused at the pids limit is PidsLimit from the output alone, where no counters came back', () => {
    expect(resourceLimitHit({ exitCode: 1, timedOut: false, output: THREAD_LIMIT }, { memory_mb: 1024, pids: 64 })?.errorClass).toBe('PidsLimit');
  });

  it('with counters that saw no refused fork, the same output is the classifier\'s: Runtime', () => {
    const c = { oomKills: 0, memoryFailcnt: 0, memoryPeakBytes: 1, memoryLimitBytes: 2, pidsLimitHits: 0 };
    expect(resourceLimitHit({ exitCode: 1, timedOut: false, output: THREAD_LIMIT, counters: { before: c, after: c } }, { memory_mb: 1024, pids: 64 })).toBeNull();
    expect(run(THREAD_LIMIT)).toBe('Runtime');
  });
});
