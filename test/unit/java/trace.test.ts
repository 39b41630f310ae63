import { artifactIdOfJar, mapJavaTrace } from '../../../src/ecosystems/java/trace';
import { parseClassLoadLog } from '../../../src/ecosystems/java/traceClassLoad';
import { parseStraceOpenedFiles } from '../../../src/ecosystems/strace';

const ROOTS = ['/work/target/dependency', '/root/.m2/repository'];

describe('artifactIdOfJar', () => {
  it('reads the artifactId of a jar in repository layout under either root', () => {
    expect(artifactIdOfJar('/work/target/dependency/com/google/code/gson/gson/2.10.1/gson-2.10.1.jar', ROOTS)).toBe('gson');
    expect(artifactIdOfJar('/root/.m2/repository/org/apache/commons/commons-lang3/3.13.0/commons-lang3-3.13.0.jar', ROOTS)).toBe('commons-lang3');
    expect(artifactIdOfJar('/work/target/dependency/junit/junit/4.13.2/junit-4.13.2.jar', ROOTS)).toBe('junit');
  });

  it('accepts classifiers and timestamped snapshots', () => {
    expect(artifactIdOfJar('/work/target/dependency/org/openjfx/javafx-base/17.0.2/javafx-base-17.0.2-linux.jar', ROOTS)).toBe('javafx-base');
    expect(artifactIdOfJar('/root/.m2/repository/io/netty/netty-transport-native-epoll/4.1.100.Final/netty-transport-native-epoll-4.1.100.Final-linux-x86_64.jar', ROOTS)).toBe('netty-transport-native-epoll');
    expect(artifactIdOfJar('/root/.m2/repository/com/example/lib/1.0-SNAPSHOT/lib-1.0-SNAPSHOT.jar', ROOTS)).toBe('lib');
    expect(artifactIdOfJar('/root/.m2/repository/com/example/lib/1.0-SNAPSHOT/lib-1.0-20240105.101010-3.jar', ROOTS)).toBe('lib');
  });

  it('rejects files whose name does not match the coordinates, and paths outside the layout', () => {
    expect(artifactIdOfJar('/work/target/dependency/com/google/code/gson/gson/2.10.1/other-2.10.1.jar', ROOTS)).toBeNull();
    expect(artifactIdOfJar('/work/target/dependency/com/google/code/gson/gson/2.10.1/gson-2.10.jar', ROOTS)).toBeNull();
    expect(artifactIdOfJar('/work/target/dependency/com/google/code/gson/gson/2.10.1/gson-2.10.1-.jar', ROOTS)).toBeNull();
    expect(artifactIdOfJar('/work/target/dependency/com/example/lib/1.0-SNAPSHOT/lib-1.0-garbage.jar', ROOTS)).toBeNull();
    // flat copy-dependencies output, without the layout
    expect(artifactIdOfJar('/work/target/dependency/gson-2.10.1.jar', ROOTS)).toBeNull();
    // no group segment
    expect(artifactIdOfJar('/work/target/dependency/gson/2.10.1/gson-2.10.1.jar', ROOTS)).toBeNull();
    expect(artifactIdOfJar('/work/target/dependency/com/google/code/gson/gson/2.10.1/gson-2.10.1.pom', ROOTS)).toBeNull();
    expect(artifactIdOfJar('/work/target/csv-report-1.0.0.jar', ROOTS)).toBeNull();
    expect(artifactIdOfJar('/work/target/dependency-extra/com/x/y/1/y-1.jar', ROOTS)).toBeNull();
  });

  it('normalises the path and the roots', () => {
    expect(artifactIdOfJar('/work/target/classes/../dependency/org/slf4j/slf4j-api/2.0.9/slf4j-api-2.0.9.jar', ['/work/target/dependency/'])).toBe('slf4j-api');
  });
});

// The JVM's opens, as parseStraceOpenedFiles returns them, of `java -cp target/classes:<jars> com.example.App`.
const OPENED = parseStraceOpenedFiles(`4012  execve("/usr/bin/java", ["java", "-cp", "target/classes:/work/target/dependency/...", "com.example.App"], 0x7ffd2c1a0b58 /* 9 vars */) = 0
4012  openat(AT_FDCWD, "/usr/lib/jvm/java-17-openjdk-amd64/lib/libjli.so", O_RDONLY|O_CLOEXEC) = 3
4013  openat(AT_FDCWD, "/usr/lib/jvm/java-17-openjdk-amd64/lib/modules", O_RDONLY) = 4
4013  openat(AT_FDCWD, "/usr/lib/jvm/java-17-openjdk-amd64/lib/ct.sym", O_RDONLY) = -1 ENOENT (No such file or directory)
4013  openat(AT_FDCWD, "/work/target/classes/com/example/App.class", O_RDONLY) = 5
4013  openat(AT_FDCWD, "/work/target/dependency/com/fasterxml/jackson/core/jackson-databind/2.15.2/jackson-databind-2.15.2.jar", O_RDONLY) = 6
4013  openat(AT_FDCWD, "/work/target/dependency/com/fasterxml/jackson/core/jackson-core/2.15.2/jackson-core-2.15.2.jar", O_RDONLY) = 7
4013  openat(AT_FDCWD, "/work/target/dependency/com/fasterxml/jackson/core/jackson-annotations/2.15.2/jackson-annotations-2.15.2.jar", O_RDONLY) = 8
4013  openat(AT_FDCWD, "/work/target/dependency/com/fasterxml/jackson/core/jackson-databind/2.15.2/jackson-databind-2.15.2.jar", O_RDONLY) = 9
4013  openat(AT_FDCWD, "/work/target/dependency/org/slf4j/slf4j-api/2.0.9/slf4j-api-2.0.9.jar", O_RDONLY) = -1 ENOENT (No such file or directory)
4013  openat(AT_FDCWD, "/usr/share/java/java-atk-wrapper.jar", O_RDONLY) = 10
4013  openat(AT_FDCWD, "/work/data/input.csv", O_RDONLY) = 11
4013  +++ exited with 0 +++
`);

describe('mapJavaTrace', () => {
  it('returns the sorted unique artifactIds of the jars opened; JDK, classes and data files count for nothing', () => {
    expect(mapJavaTrace(OPENED, { roots: ROOTS })).toEqual(['jackson-annotations', 'jackson-core', 'jackson-databind']);
  });

  it('is empty when no dependency jar was opened', () => {
    expect(mapJavaTrace(['/usr/lib/jvm/java-17-openjdk-amd64/lib/modules', '/work/target/classes/App.class'], { roots: ROOTS })).toEqual([]);
    expect(mapJavaTrace([], { roots: ROOTS })).toEqual([]);
  });
});

// `java -Xlog:class+load=info:file=classload.txt -cp target/classes:<junit>:<gson>:<hamcrest> ...` on
// OpenJDK 17: the JVM opened junit's jar while searching for Gson, but loaded no class from it.
const CLASS_LOAD_LOG = `[0.016s][info][class,load] java.lang.Object source: shared objects file
[0.016s][info][class,load] java.io.Serializable source: shared objects file
[0.031s][info][class,load] jdk.internal.loader.URLClassPath$JarLoader source: jrt:/java.base
[0.032s][info][class,load] com.example.jsontool.App source: file:/work/target/classes/
[0.042s][info][class,load] com.google.gson.Gson source: file:/work/target/dependency/com/google/code/gson/gson/2.10.1/gson-2.10.1.jar
[0.042s][info][class,load] com.google.gson.FieldNamingStrategy source: file:/work/target/dependency/com/google/code/gson/gson/2.10.1/gson-2.10.1.jar
[0.094s][info][class,load] java.lang.invoke.LambdaForm$MH/0x00007f48b8011000 source: __JVM_LookupDefineClass__
[0.101s][info][class,load] org.slf4j.LoggerFactory source: jar:file:/root/.m2/repository/org/slf4j/slf4j-api/2.0.9/slf4j-api-2.0.9.jar!/
[0.102s][info][class,load] com.acme.Util source: file:/work/target/dependency/com/acme/my%20util/1.0/my%20util-1.0.jar
`;

describe('parseClassLoadLog', () => {
  it('returns the jars classes were loaded from, first seen first, for mapJavaTrace', () => {
    const jars = parseClassLoadLog(CLASS_LOAD_LOG);
    expect(jars).toEqual([
      '/work/target/dependency/com/google/code/gson/gson/2.10.1/gson-2.10.1.jar',
      '/root/.m2/repository/org/slf4j/slf4j-api/2.0.9/slf4j-api-2.0.9.jar',
      '/work/target/dependency/com/acme/my util/1.0/my util-1.0.jar',
    ]);
    expect(mapJavaTrace(jars, { roots: ROOTS })).toEqual(['gson', 'my util', 'slf4j-api']);
  });

  it('is empty for a log without dependency classes', () => {
    expect(parseClassLoadLog('[0.016s][info][class,load] java.lang.Object source: shared objects file\n')).toEqual([]);
    expect(parseClassLoadLog('')).toEqual([]);
  });
});
