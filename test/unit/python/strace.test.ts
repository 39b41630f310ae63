import { parseFileCall, parseStraceLine, parseStraceOpenedFiles } from '../../../src/ecosystems/strace';

// `strace -f -qq -e trace=open,openat,execve -o run.trace python main.py` for a numpy program that
// also starts a shell through subprocess.
const NUMPY_RUN = `4711  execve("/work/.venv/bin/python", ["python", "main.py"], 0x7ffd5f1c8a18 /* 12 vars */) = 0
4711  openat(AT_FDCWD, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 3
4711  openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libm.so.6", O_RDONLY|O_CLOEXEC) = 3
4711  openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libc.so.6", O_RDONLY|O_CLOEXEC) = 3
4711  openat(AT_FDCWD, "/usr/lib/locale/locale-archive", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
4711  openat(AT_FDCWD, "/work/.venv/pyvenv.cfg", O_RDONLY) = 3
4711  openat(AT_FDCWD, "/usr/lib/python3.11/encodings/__pycache__/__init__.cpython-311.pyc", O_RDONLY|O_CLOEXEC) = 3
4711  openat(AT_FDCWD, "/work/.venv/lib/python3.11/site-packages", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = 3
4711  openat(AT_FDCWD, "/work/.venv/lib/python3.11/site-packages/distutils-precedence.pth", O_RDONLY|O_CLOEXEC) = 3
4711  openat(AT_FDCWD, "main.py", O_RDONLY|O_CLOEXEC) = 3
4711  openat(AT_FDCWD, "/work/.venv/lib/python3.11/site-packages/numpy/__pycache__/__init__.cpython-311.pyc", O_RDONLY|O_CLOEXEC) = 3
4711  openat(AT_FDCWD, "/work/.venv/lib/python3.11/site-packages/numpy/core/_multiarray_umath.cpython-311-x86_64-linux-gnu.so", O_RDONLY|O_CLOEXEC) = 3
4711  openat(AT_FDCWD, "/work/.venv/lib/python3.11/site-packages/numpy/core/../../numpy.libs/libopenblas64_p-r0-0cf96a72.3.23.dev.so", O_RDONLY|O_CLOEXEC) = 3
4711  openat(AT_FDCWD, "/work/.venv/lib/python3.11/site-packages/numpy/core/../../numpy.libs/libgfortran-040039e1.so.5.0.0", O_RDONLY|O_CLOEXEC) = 3
4714  openat(AT_FDCWD, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC <unfinished ...>
4711  openat(AT_FDCWD, "/work/.venv/lib/python3.11/site-packages/numpy/__pycache__/version.cpython-311.pyc", O_RDONLY|O_CLOEXEC <unfinished ...>
4714  <... openat resumed>) = 3
4711  <... openat resumed>) = 4
4715  execve("/usr/local/sbin/sh", ["/bin/sh", "-c", "uname -p 2> /dev/null"], 0x7ffc9a0 /* 12 vars */) = -1 ENOENT (No such file or directory)
4715  execve("/bin/sh", ["/bin/sh", "-c", "uname -p 2> /dev/null"], 0x7ffc9a0 /* 12 vars */ <unfinished ...>
4711  openat(AT_FDCWD, "/work/data/missing.csv", O_RDONLY|O_CLOEXEC <unfinished ...>
4715  <... execve resumed>) = 0
4711  <... openat resumed>) = -1 ENOENT (No such file or directory)
4715  +++ exited with 0 +++
4711  --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=4715, si_uid=0, si_status=0, si_utime=0, si_stime=0} ---
4711  openat(AT_FDCWD, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 3
4711  +++ exited with 0 +++
`;

describe('parseStraceOpenedFiles', () => {
  it('returns successful absolute opens and execs, unique, normalised, in first-seen order', () => {
    expect(parseStraceOpenedFiles(NUMPY_RUN)).toEqual([
      '/work/.venv/bin/python',
      '/etc/ld.so.cache',
      '/lib/x86_64-linux-gnu/libm.so.6',
      '/lib/x86_64-linux-gnu/libc.so.6',
      '/work/.venv/pyvenv.cfg',
      '/usr/lib/python3.11/encodings/__pycache__/__init__.cpython-311.pyc',
      '/work/.venv/lib/python3.11/site-packages',
      '/work/.venv/lib/python3.11/site-packages/distutils-precedence.pth',
      '/work/.venv/lib/python3.11/site-packages/numpy/__pycache__/__init__.cpython-311.pyc',
      '/work/.venv/lib/python3.11/site-packages/numpy/core/_multiarray_umath.cpython-311-x86_64-linux-gnu.so',
      '/work/.venv/lib/python3.11/site-packages/numpy.libs/libopenblas64_p-r0-0cf96a72.3.23.dev.so',
      '/work/.venv/lib/python3.11/site-packages/numpy.libs/libgfortran-040039e1.so.5.0.0',
      '/work/.venv/lib/python3.11/site-packages/numpy/__pycache__/version.cpython-311.pyc',
      '/bin/sh',
    ]);
  });

  it('handles lines without a pid (no -f) and the old open syscall', () => {
    const log = `execve("/usr/bin/python3", ["python3", "-c", "pass"], 0x7ffe2a1e4f08 /* 9 vars */) = 0
open("/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 3
openat(AT_FDCWD, "/usr/lib/python3.11/os.py", O_RDONLY|O_CLOEXEC) = 3
openat(AT_FDCWD, "/usr/lib/python3.11/nothere.py", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)
+++ exited with 0 +++
`;
    expect(parseStraceOpenedFiles(log)).toEqual(['/usr/bin/python3', '/etc/ld.so.cache', '/usr/lib/python3.11/os.py']);
  });

  it('handles [pid N] prefixes, timestamps, -y fd annotations and -T durations', () => {
    const log = `[pid  4802] 10:15:42.123456 openat(AT_FDCWD, "/usr/lib/python3.11/json/__init__.py", O_RDONLY|O_CLOEXEC) = 3</usr/lib/python3.11/json/__init__.py>
4802  1700000000.123456 openat(AT_FDCWD</work>, "/usr/lib/python3.11/json/decoder.py", O_RDONLY|O_CLOEXEC) = 4 <0.000021>
1700000000.223456 openat(AT_FDCWD, "/usr/lib/python3.11/json/scanner.py", O_RDONLY) = 5
     0.000123 openat(AT_FDCWD, "/usr/lib/python3.11/json/encoder.py", O_RDONLY) = 6
`;
    expect(parseStraceOpenedFiles(log)).toEqual([
      '/usr/lib/python3.11/json/__init__.py',
      '/usr/lib/python3.11/json/decoder.py',
      '/usr/lib/python3.11/json/scanner.py',
      '/usr/lib/python3.11/json/encoder.py',
    ]);
  });

  it('decodes escaped strings: quotes, backslashes, octal UTF-8 bytes and hex', () => {
    const log = `1  openat(AT_FDCWD, "/data/caf\\303\\251/r\\303\\251sum\\303\\251.txt", O_RDONLY) = 3
1  openat(AT_FDCWD, "/data/a \\"quoted\\" name", O_RDONLY) = 3
1  openat(AT_FDCWD, "/data/back\\\\slash", O_RDONLY) = 3
1  openat(AT_FDCWD, "\\x2f\\x74\\x6d\\x70\\x2f\\x78", O_RDONLY) = 3
1  openat(AT_FDCWD, "/data/tab\\there", O_RDONLY) = 3
`;
    expect(parseStraceOpenedFiles(log)).toEqual([
      '/data/café/résumé.txt',
      '/data/a "quoted" name',
      '/data/back\\slash',
      '/tmp/x',
      '/data/tab\there',
    ]);
  });

  it('ignores relative paths, dirfd-relative opens, failures, unknown results and other syscalls', () => {
    const log = `7  openat(AT_FDCWD, "config.yaml", O_RDONLY) = 3
7  openat(3, "sub/file.txt", O_RDONLY) = 4
7  openat(AT_FDCWD, "./data.csv", O_RDONLY) = 5
7  openat(AT_FDCWD, "/root/.netrc", O_RDONLY) = -1 EACCES (Permission denied)
7  execve("/usr/bin/gcc", ["gcc"], 0x0 /* 3 vars */) = ?
7  stat("/usr/lib/x", {st_mode=S_IFREG|0644, st_size=1, ...}) = 0
7  exit_group(0)                     = ?
7  openat(4, "/abs/despite/dirfd", O_RDONLY) = 6
`;
    expect(parseStraceOpenedFiles(log)).toEqual(['/abs/despite/dirfd']);
  });

  it('keeps paths that contain ") = " and takes the last result', () => {
    const log = '9  openat(AT_FDCWD, "/tmp/weird) = 3", O_RDONLY) = -1 ENOENT (No such file or directory)\n9  openat(AT_FDCWD, "/tmp/ok) = -1", O_RDONLY) = 3\n';
    expect(parseStraceOpenedFiles(log)).toEqual(['/tmp/ok) = -1']);
  });

  it('drops a resumed line whose start is missing, and an unfinished call that never resumes', () => {
    const log = `5  <... openat resumed>) = 3
5  openat(AT_FDCWD, "/never/resumed", O_RDONLY <unfinished ...>
5  +++ killed by SIGKILL +++
`;
    expect(parseStraceOpenedFiles(log)).toEqual([]);
  });

  it('keeps interleaved unfinished calls apart by pid', () => {
    const log = `1  openat(AT_FDCWD, "/a", O_RDONLY <unfinished ...>
2  openat(AT_FDCWD, "/b", O_RDONLY <unfinished ...>
1  <... openat resumed>) = -1 ENOENT (No such file or directory)
2  <... openat resumed>) = 7
`;
    expect(parseStraceOpenedFiles(log)).toEqual(['/b']);
  });

  it('handles CRLF logs and an empty log', () => {
    expect(parseStraceOpenedFiles('1  openat(AT_FDCWD, "/x/y.py", O_RDONLY) = 3\r\n')).toEqual(['/x/y.py']);
    expect(parseStraceOpenedFiles('')).toEqual([]);
  });

  it('skips strings strace truncated', () => {
    expect(parseStraceOpenedFiles('1  execve("/usr/bin/very-long"..., ["x"], 0x0) = 0\n')).toEqual([]);
  });
});

describe('parseStraceLine', () => {
  it('classifies lines', () => {
    expect(parseStraceLine('4711  openat(AT_FDCWD, "/x", O_RDONLY) = 3')).toEqual({
      kind: 'call', pid: 4711, syscall: 'openat', text: 'openat(AT_FDCWD, "/x", O_RDONLY) = 3',
    });
    expect(parseStraceLine('4711  openat(AT_FDCWD, "/x", O_RDONLY <unfinished ...>')).toEqual({
      kind: 'unfinished', pid: 4711, syscall: 'openat', text: 'openat(AT_FDCWD, "/x", O_RDONLY',
    });
    expect(parseStraceLine('4711  <... openat resumed>) = 3')).toEqual({ kind: 'resumed', pid: 4711, syscall: 'openat', text: ') = 3' });
    expect(parseStraceLine('4711  +++ exited with 1 +++')).toEqual({ kind: 'other', pid: 4711, text: '+++ exited with 1 +++' });
    expect(parseStraceLine('--- SIGINT {si_signo=SIGINT, si_code=SI_KERNEL} ---').kind).toBe('other');
    expect(parseStraceLine('strace: Process 4712 attached').kind).toBe('other');
    expect(parseStraceLine('[pid  4712] execve("/bin/ls", ["ls"], 0x1 /* 1 var */) = 0')).toMatchObject({ kind: 'call', pid: 4712 });
    expect(parseStraceLine('openat(AT_FDCWD, "/x", O_RDONLY) = 3')).toMatchObject({ kind: 'call', pid: null });
  });
});

describe('parseFileCall', () => {
  it('extracts path and result', () => {
    expect(parseFileCall('openat(AT_FDCWD, "/x", O_RDONLY) = 3')).toEqual({ syscall: 'openat', path: '/x', result: 3 });
    expect(parseFileCall('open("/y", O_RDONLY) = -1 ENOENT (No such file or directory)')).toEqual({ syscall: 'open', path: '/y', result: -1 });
    expect(parseFileCall('execve("/bin/true", ["true"], 0x1 /* 2 vars */) = ?')).toEqual({ syscall: 'execve', path: '/bin/true', result: null });
    expect(parseFileCall('read(3, "abc", 3) = 3')).toBeNull();
    expect(parseFileCall('openat(AT_FDCWD, "/unterminated')).toBeNull();
  });
});
