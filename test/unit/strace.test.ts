import * as python from '../../src/ecosystems/python';
import * as shared from '../../src/ecosystems/strace';

// Lines of a real `strace -f -qq --seccomp-bpf -e trace=open,openat,execve,chdir -o run.trace java -cp
// target/classes:<gson jar> com.example.jsontool.App a b` (OpenJDK 17, Debian), paths moved to /work:
// loader probes that fail, the JVM's relative opens, its deliberate SIGSEGV (an implicit null check).
const JVM_RUN = `9712  execve("/usr/bin/java", ["java", "-cp", "target/classes:/work/target/de"..., "com.example.jsontool.App", "a", "b"], 0x7ffe7eb7ff20 /* 35 vars */) = 0
9712  openat(AT_FDCWD, "/usr/lib/jvm/java-17-openjdk-amd64/bin/../lib/libz.so.1", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
9712  openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libz.so.1", O_RDONLY|O_CLOEXEC) = 3
9712  openat(AT_FDCWD, "/usr/lib/jvm/java-17-openjdk-amd64/bin/../lib/libjli.so", O_RDONLY|O_CLOEXEC) = 3
9712  openat(AT_FDCWD, "/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so", O_RDONLY|O_CLOEXEC) = 3
9713  openat(AT_FDCWD, "/usr/lib/jvm/java-17-openjdk-amd64/lib/modules", O_RDONLY) = 3
9713  openat(AT_FDCWD, "/proc/self/cgroup", O_RDONLY) = 4
9713  openat(AT_FDCWD, "/tmp/hsperfdata_root", O_RDONLY|O_NOFOLLOW) = 4
9713  openat(AT_FDCWD, ".", O_RDONLY)   = 4
9713  openat(AT_FDCWD, "9712", O_RDWR|O_CREAT|O_NOFOLLOW|O_CLOEXEC, 0600) = 6
9713  --- SIGSEGV {si_signo=SIGSEGV, si_code=SEGV_MAPERR, si_addr=NULL} ---
9713  openat(AT_FDCWD, "/work/target/classes/com/example/jsontool/App.class", O_RDONLY) = 4
9713  openat(AT_FDCWD, "/work/target/dependency/com/google/code/gson/gson/2.10.1/gson-2.10.1.jar", O_RDONLY) = 4
9713  openat(AT_FDCWD, "/usr/lib/jvm/java-17-openjdk-amd64/lib/libnio.so", O_RDONLY) = 4
9721  +++ exited with 0 +++
9712  +++ exited with 0 +++
`;

describe('the shared strace parser', () => {
  it('is what the python folder re-exports', () => {
    expect(python.parseStraceOpenedFiles).toBe(shared.parseStraceOpenedFiles);
    expect(python.parseStraceLine).toBe(shared.parseStraceLine);
    expect(python.parseFileCall).toBe(shared.parseFileCall);
  });

  it('reads a JVM run: absolute successful opens across threads, relative ones and signals left out', () => {
    expect(shared.parseStraceOpenedFiles(JVM_RUN)).toEqual([
      '/usr/bin/java',
      '/lib/x86_64-linux-gnu/libz.so.1',
      '/usr/lib/jvm/java-17-openjdk-amd64/lib/libjli.so',
      '/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so',
      '/usr/lib/jvm/java-17-openjdk-amd64/lib/modules',
      '/proc/self/cgroup',
      '/tmp/hsperfdata_root',
      '/work/target/classes/com/example/jsontool/App.class',
      '/work/target/dependency/com/google/code/gson/gson/2.10.1/gson-2.10.1.jar',
      '/usr/lib/jvm/java-17-openjdk-amd64/lib/libnio.so',
    ]);
  });

  it('joins calls other threads interrupted', () => {
    const log = `5121  openat(AT_FDCWD, "/work/target/dependency/junit/junit/4.13.2/junit-4.13.2.jar", O_RDONLY <unfinished ...>
5124  openat(AT_FDCWD, "/proc/self/stat", O_RDONLY <unfinished ...>
5121  <... openat resumed>)             = 7
5124  <... openat resumed>)             = -1 ENOENT (No such file or directory)
`;
    expect(shared.parseStraceOpenedFiles(log)).toEqual(['/work/target/dependency/junit/junit/4.13.2/junit-4.13.2.jar']);
  });

  it('ignores chdir calls, which the runners trace too', () => {
    const log = `77  chdir("/work/node_modules/sqlite3") = 0
77  openat(AT_FDCWD, "/work/node_modules/sqlite3/package.json", O_RDONLY|O_CLOEXEC) = 21
`;
    expect(shared.parseStraceOpenedFiles(log)).toEqual(['/work/node_modules/sqlite3/package.json']);
  });
});
