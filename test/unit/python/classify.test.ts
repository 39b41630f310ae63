import { classifyPythonFailure, errorTail } from '../../../src/ecosystems/python/classify';
import { resourceLimitHit } from '../../../src/ecosystems/resourceLimits';

const install = (output: string, exitCode: number | null = 1) => classifyPythonFailure({ step: 'install', exitCode, timedOut: false, output });
const run = (output: string, exitCode: number | null = 1) => classifyPythonFailure({ step: 'run', exitCode, timedOut: false, output });

// pip 23.2 and Python 3.11 outputs, as seen in clean containers.
const PIP = {
  offline: `Collecting requests==2.31.0 (from -r requirements.txt (line 1))
WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f3b2c1d5e50>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/requests/
WARNING: Retrying (Retry(total=3, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f3b2c1d6210>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/requests/
WARNING: Retrying (Retry(total=2, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f3b2c1d6490>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/requests/
ERROR: Could not find a version that satisfies the requirement requests==2.31.0 (from versions: none)
ERROR: No matching distribution found for requests==2.31.0
`,
  sslProxy: `WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate in certificate chain (_ssl.c:1006)'))': /simple/numpy/
Could not fetch URL https://pypi.org/simple/numpy/: There was a problem confirming the ssl certificate: HTTPSConnectionPool(host='pypi.org', port=443): Max retries exceeded with url: /simple/numpy/ (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate in certificate chain (_ssl.c:1006)'))) - skipping
ERROR: Could not find a version that satisfies the requirement numpy (from versions: none)
ERROR: No matching distribution found for numpy
`,
  readTimeout: `Collecting torch==2.1.0 (from -r requirements.txt (line 1))
  Downloading torch-2.1.0-cp311-cp311-manylinux1_x86_64.whl (670.2 MB)
     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 120.5/670.2 MB 10.2 MB/s eta 0:00:54
ERROR: Exception:
Traceback (most recent call last):
  File "/usr/local/lib/python3.11/site-packages/pip/_vendor/urllib3/response.py", line 438, in _error_catcher
    yield
  File "/usr/local/lib/python3.11/site-packages/pip/_vendor/urllib3/response.py", line 561, in read
    data = self._fp_read(amt) if not fp_closed else b""
TimeoutError: The read operation timed out

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/usr/local/lib/python3.11/site-packages/pip/_internal/cli/base_command.py", line 180, in exc_logging_wrapper
    status = run_func(*args)
pip._vendor.urllib3.exceptions.ReadTimeoutError: HTTPSConnectionPool(host='files.pythonhosted.org', port=443): Read timed out.
`,
  gitAuth: `Collecting mylib@ git+https://github.com/someone/mylib.git (from -r requirements.txt (line 3))
  Cloning https://github.com/someone/mylib.git to /tmp/pip-install-3x1u2m0f/mylib_5b0c1d
  Running command git clone --filter=blob:none --quiet https://github.com/someone/mylib.git /tmp/pip-install-3x1u2m0f/mylib_5b0c1d
  fatal: could not read Username for 'https://github.com': No such device or address
  error: subprocess-exited-with-error

  × git clone --filter=blob:none --quiet https://github.com/someone/mylib.git /tmp/pip-install-3x1u2m0f/mylib_5b0c1d did not run successfully.
  │ exit code: 128
  ╰─> See above for output.

  note: This error originates from a subprocess, and is likely not a problem with pip.
error: subprocess-exited-with-error
`,
  http404: `Collecting y@ https://github.com/x/y/releases/download/v1/y-1.0-py3-none-any.whl (from -r requirements.txt (line 2))
ERROR: HTTP error 404 while getting https://github.com/x/y/releases/download/v1/y-1.0-py3-none-any.whl
ERROR: Could not install requirement y@ https://github.com/x/y/releases/download/v1/y-1.0-py3-none-any.whl from https://github.com/x/y/releases/download/v1/y-1.0-py3-none-any.whl (from -r requirements.txt (line 2)) because of HTTP error 404 Client Error: Not Found for url: https://github.com/x/y/releases/download/v1/y-1.0-py3-none-any.whl
`,
  noSuchProject: `Collecting pandas==2.1.4 (from -r requirements.txt (line 1))
  Downloading pandas-2.1.4-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl (12.2 MB)
     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 12.2/12.2 MB 48.1 MB/s eta 0:00:00
ERROR: Could not find a version that satisfies the requirement sklearn-utils-extra==9.9 (from versions: none)
ERROR: No matching distribution found for sklearn-utils-extra==9.9
`,
  noSuchVersion: `Collecting numpy>=1.24 (from -r requirements.txt (line 1))
  Using cached numpy-1.26.2-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl.metadata (61 kB)
ERROR: Could not find a version that satisfies the requirement pandas==9.0.0 (from versions: 0.1, 0.2, 0.3.0, 0.4.0, 0.4.1, 2.1.2, 2.1.3, 2.1.4)
ERROR: No matching distribution found for pandas==9.0.0
`,
  requiresPython: `ERROR: Ignored the following versions that require a different python version: 1.21.2 Requires-Python >=3.7,<3.11; 1.21.3 Requires-Python >=3.7,<3.11; 1.21.4 Requires-Python >=3.7,<3.11
ERROR: Could not find a version that satisfies the requirement numpy==1.21.2 (from versions: 1.3.0, 1.4.1, 1.26.2)
ERROR: No matching distribution found for numpy==1.21.2
`,
  pgConfig: `Collecting psycopg2==2.9.9 (from -r requirements.txt (line 1))
  Downloading psycopg2-2.9.9.tar.gz (384 kB)
     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 384.9/384.9 kB 9.8 MB/s eta 0:00:00
  Preparing metadata (setup.py) ... error
  error: subprocess-exited-with-error

  × python setup.py egg_info did not run successfully.
  │ exit code: 1
  ╰─> [23 lines of output]
      running egg_info
      creating /tmp/pip-pip-egg-info-7l2a5q8u/psycopg2.egg-info
      writing /tmp/pip-pip-egg-info-7l2a5q8u/psycopg2.egg-info/PKG-INFO

      Error: pg_config executable not found.

      pg_config is required to build psycopg2 from source.  Please add the directory
      containing pg_config to the $PATH or specify the full executable path with the
      option:

          python setup.py build_ext --pg-config /path/to/pg_config build ...

      If you prefer to avoid building psycopg2 from source, please install the PyPI
      'psycopg2-binary' package instead.
      [end of output]

  note: This error originates from a subprocess, and is likely not a problem with pip.
error: metadata-generation-failed

× Encountered error while generating package metadata.
╰─> See above for output.

note: This is an issue with the package mentioned above, not pip.
hint: See above for details.
`,
  mysqlPkgConfig: `Collecting mysqlclient==2.2.0 (from -r requirements.txt (line 2))
  Downloading mysqlclient-2.2.0.tar.gz (89 kB)
  Installing build dependencies ... done
  Getting requirements to build wheel ... error
  error: subprocess-exited-with-error

  × Getting requirements to build wheel did not run successfully.
  │ exit code: 1
  ╰─> [24 lines of output]
      /bin/sh: 1: pkg-config: not found
      Trying pkg-config --exists mysqlclient
      Command 'pkg-config --exists mysqlclient' returned non-zero exit status 127.
      Trying pkg-config --exists mariadb
      Command 'pkg-config --exists mariadb' returned non-zero exit status 127.
      Traceback (most recent call last):
      Exception: Can not find valid pkg-config name.
      Specify MYSQLCLIENT_CFLAGS and MYSQLCLIENT_LDFLAGS env vars manually
      [end of output]
`,
  pkgConfigPackage: `      Package cairo was not found in the pkg-config search path.
      Perhaps you should add the directory containing \`cairo.pc'
      to the PKG_CONFIG_PATH environment variable
      No package 'cairo' found
      error: subprocess-exited-with-error
  ERROR: Failed building wheel for pycairo
`,
  ldapHeader: `  Building wheel for python-ldap (pyproject.toml) ... error
  error: subprocess-exited-with-error

  × Building wheel for python-ldap (pyproject.toml) did not run successfully.
  │ exit code: 1
  ╰─> [118 lines of output]
      running build_ext
      building '_ldap' extension
      x86_64-linux-gnu-gcc -Wsign-compare -DNDEBUG -g -fwrapv -O2 -Wall -fPIC -DHAVE_SASL -DHAVE_TLS -I/usr/include/python3.11 -c Modules/LDAPObject.c -o build/temp.linux-x86_64-cpython-311/Modules/LDAPObject.o
      In file included from Modules/LDAPObject.c:3:
      Modules/common.h:15:10: fatal error: lber.h: No such file or directory
         15 | #include <lber.h>
            |          ^~~~~~~~
      compilation terminated.
      error: command '/usr/bin/x86_64-linux-gnu-gcc' failed with exit code 1
      [end of output]

  note: This error originates from a subprocess, and is likely not a problem with pip.
  ERROR: Failed building wheel for python-ldap
Failed to build python-ldap
ERROR: Could not build wheels for python-ldap, which is required to install pyproject.toml-based projects
`,
  nestedHeader: `      src/cffi/_cffi_backend.c:15:10: fatal error: ffi.h: No such file or directory
      In file included from src/_openssl.c:5:
      fatal error: openssl/opensslv.h: No such file or directory
      error: command '/usr/bin/gcc' failed with exit code 1
  ERROR: Failed building wheel for cffi
`,
  pythonH: `  Building wheel for netifaces (setup.py) ... error
  error: subprocess-exited-with-error

  × python setup.py bdist_wheel did not run successfully.
  │ exit code: 1
  ╰─> [18 lines of output]
      building 'netifaces' extension
      x86_64-linux-gnu-gcc -Wsign-compare -DNDEBUG -g -fwrapv -O2 -Wall -fPIC -DNETIFACES_VERSION=0.11.0 -I/usr/include/python3.11 -c netifaces.c -o build/temp.linux-x86_64-cpython-311/netifaces.o
      netifaces.c:1:10: fatal error: Python.h: No such file or directory
          1 | #include <Python.h>
            |          ^~~~~~~~~~
      compilation terminated.
      error: command '/usr/bin/x86_64-linux-gnu-gcc' failed with exit code 1
      [end of output]
  ERROR: Failed building wheel for netifaces
`,
  numpyHeader: `      pandas/_libs/algos.c:1234:10: fatal error: numpy/arrayobject.h: No such file or directory
      compilation terminated.
      error: command '/usr/bin/gcc' failed with exit code 1
  ERROR: Failed building wheel for pandas
`,
  noCompiler: `  Building wheel for cchardet (setup.py) ... error
  error: subprocess-exited-with-error
      running build_ext
      building 'cchardet._cchardet' extension
      error: command 'gcc' failed: No such file or directory
      [end of output]
  ERROR: Failed building wheel for cchardet
`,
  noRust: `      running build_rust
      error: can't find Rust compiler

      If you are using an outdated pip version, it is possible a prebuilt wheel is available for this package but pip is not able to install from it. Installing from the wheel would avoid the need for a Rust compiler.
      [end of output]
  ERROR: Failed building wheel for tokenizers
Failed to build tokenizers
ERROR: Could not build wheels for tokenizers, which is required to install pyproject.toml-based projects
`,
  mesonOpenBlas: `      Run-time dependency openblas found: NO (tried pkgconfig and cmake)
      ../../scipy/meson.build:159:9: ERROR: Dependency "OpenBLAS" not found, tried pkgconfig and cmake
      [end of output]
  note: This error originates from a subprocess, and is likely not a problem with pip.
error: metadata-generation-failed
`,
  linkerLib: `      /usr/bin/ld: cannot find -lsndfile: No such file or directory
      collect2: error: ld returned 1 exit status
      error: command '/usr/bin/x86_64-linux-gnu-gcc' failed with exit code 1
  ERROR: Failed building wheel for pysndfile
`,
  lxmlRetryThenBuild: `WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ReadTimeoutError("HTTPSConnectionPool(host='pypi.org', port=443): Read timed out. (read timeout=15)")': /simple/lxml/
Collecting lxml==4.6.3 (from -r requirements.txt (line 1))
  Downloading lxml-4.6.3.tar.gz (3.2 MB)
  Building wheel for lxml (setup.py) ... error
  error: subprocess-exited-with-error
      Building lxml version 4.6.3.
      Building without Cython.
      Error: Please make sure the libxml2 and libxslt development packages are installed.
      [end of output]
  ERROR: Failed building wheel for lxml
`,
  retryThenCompileError: `WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ProtocolError('Connection aborted.', ConnectionResetError(104, 'Connection reset by peer'))': /simple/numpy/
Collecting numpy==1.19.5 (from -r requirements.txt (line 1))
  Downloading numpy-1.19.5.zip (7.3 MB)
  Building wheel for numpy (pyproject.toml) ... error
  error: subprocess-exited-with-error
      numpy/core/src/multiarray/scalartypes.c.src:3085:12: error: too many arguments to function '_Py_HashDouble'
      error: Command "gcc -pthread -Wno-unused-result ... -c build/src.linux-x86_64-3.11/numpy/core/src/multiarray/scalartypes.c" failed with exit status 1
  ERROR: Failed building wheel for numpy
Failed to build numpy
ERROR: Could not build wheels for numpy, which is required to install pyproject.toml-based projects
`,
  conflict: `INFO: pip is looking at multiple versions of modin to determine which version is compatible with other requirements. This could take a while.
ERROR: Cannot install -r requirements.txt (line 1) and pandas==2.1.0 because these package versions have conflicting dependencies.

The conflict is caused by:
    The user requested pandas==2.1.0
    modin 0.20.1 depends on pandas==1.5.3

To fix this you could try to:
1. loosen the range of package versions you've specified
2. remove package versions to allow pip attempt to solve the dependency conflict

ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts
`,
  invalidRequirement: `ERROR: Invalid requirement: 'numpy=1.26' (from line 1 of requirements.txt)
Hint: = is not a valid operator. Did you mean == ?
`,
};

describe('classifyPythonFailure: install', () => {
  it.each([
    ['offline (name resolution, then no versions)', PIP.offline, 'FetchFail'],
    ['TLS interception without the CA', PIP.sslProxy, 'FetchFail'],
    ['read timeout while downloading', PIP.readTimeout, 'FetchFail'],
    ['git clone without credentials', PIP.gitAuth, 'FetchFail'],
    ['HTTP 404 on a direct URL', PIP.http404, 'FetchFail'],
    ['a project that does not exist', PIP.noSuchProject, 'MissingDep'],
    ['a version that does not exist', PIP.noSuchVersion, 'MissingDep'],
    ['a version for another Python only', PIP.requiresPython, 'MissingDep'],
    ['pg_config missing', PIP.pgConfig, 'SystemLib'],
    ['pkg-config missing', PIP.mysqlPkgConfig, 'SystemLib'],
    ['pkg-config package missing', PIP.pkgConfigPackage, 'SystemLib'],
    ['a system header missing', PIP.ldapHeader, 'SystemLib'],
    ['ffi.h and openssl headers missing', PIP.nestedHeader, 'SystemLib'],
    ['meson dependency missing', PIP.mesonOpenBlas, 'SystemLib'],
    ['linker library missing', PIP.linkerLib, 'SystemLib'],
    ['libxml2 dev packages missing after a retried fetch', PIP.lxmlRetryThenBuild, 'SystemLib'],
    ['Python.h missing', PIP.pythonH, 'Build'],
    ['a numpy header missing (build dependency)', PIP.numpyHeader, 'Build'],
    ['no C compiler', PIP.noCompiler, 'Build'],
    ['no Rust compiler', PIP.noRust, 'Build'],
    ['compile error after a retried fetch', PIP.retryThenCompileError, 'Build'],
    ['conflicting versions', PIP.conflict, 'Build'],
    ['an invalid requirement line', PIP.invalidRequirement, 'Build'],
    ['empty output', '', 'Build'],
  ])('%s -> %s', (_what, output, expected) => {
    expect(install(output)).toBe(expected);
  });

  it('classifies a timeout as Timeout whatever the output', () => {
    expect(classifyPythonFailure({ step: 'install', exitCode: null, timedOut: true, output: PIP.pgConfig })).toBe('Timeout');
  });
});

const TRACEBACK = (body: string) => `Traceback (most recent call last):
  File "/work/main.py", line 3, in <module>
${body}`;

const RUN = {
  noModule: TRACEBACK(`    import yaml
ModuleNotFoundError: No module named 'yaml'
`),
  noSubmodule: TRACEBACK(`    from google.cloud import storage
ImportError: cannot import name 'storage' from 'google.cloud' (unknown location)
`),
  cannotImportName: TRACEBACK(`    from langchain.llms import OpenAI
  File "/work/.venv/lib/python3.11/site-packages/langchain/llms/__init__.py", line 1, in <module>
ImportError: cannot import name 'OpenAI' from 'langchain.llms' (/work/.venv/lib/python3.11/site-packages/langchain/llms/__init__.py)
`),
  circular: TRACEBACK(`    from app import app
  File "/work/app.py", line 2, in <module>
    from main import helper
ImportError: cannot import name 'app' from partially initialized module 'app' (most likely due to a circular import) (/work/app.py)
`),
  optionalDep: TRACEBACK(`    df.to_excel("out.xlsx")
  File "/work/.venv/lib/python3.11/site-packages/pandas/compat/_optional.py", line 145, in import_optional_dependency
    raise ImportError(msg)
ImportError: Missing optional dependency 'openpyxl'.  Use pip or conda to install openpyxl.
`),
  distributionNotFound: TRACEBACK(`    pkg_resources.require("tensorflow>=2")
pkg_resources.DistributionNotFound: The 'tensorflow>=2' distribution was not found and is required by the application
`),
  libGL: TRACEBACK(`    import cv2
  File "/work/.venv/lib/python3.11/site-packages/cv2/__init__.py", line 181, in <module>
    bootstrap()
  File "/work/.venv/lib/python3.11/site-packages/cv2/__init__.py", line 153, in bootstrap
    native_module = importlib.import_module("cv2")
                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/importlib/__init__.py", line 126, in import_module
    return _bootstrap._gcd_import(name[level:], package, level)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
ImportError: libGL.so.1: cannot open shared object file: No such file or directory
`),
  sndfile: TRACEBACK(`    import soundfile as sf
  File "/work/.venv/lib/python3.11/site-packages/soundfile.py", line 192, in <module>
    _snd = _ffi.dlopen(_libname)
           ^^^^^^^^^^^^^^^^^^^^^
OSError: cannot load library 'libsndfile.so': libsndfile.so: cannot open shared object file: No such file or directory
`),
  tkinter: TRACEBACK(`    import tkinter as tk
ModuleNotFoundError: No module named 'tkinter'
`),
  glibcxx: TRACEBACK(`    import pyarrow
ImportError: /lib/x86_64-linux-gnu/libstdc++.so.6: version \`GLIBCXX_3.4.32' not found (required by /work/.venv/lib/python3.11/site-packages/pyarrow/libarrow.so.1400)
`),
  numpyMemory: TRACEBACK(`    big = np.zeros((100000, 100000))
numpy.core._exceptions._ArrayMemoryError: Unable to allocate 74.5 GiB for an array with shape (100000, 100000) and data type float64
`),
  memoryError: TRACEBACK(`    data = [0] * (10 ** 12)
MemoryError
`),
  zeroDivision: TRACEBACK(`    print(total / count)
ZeroDivisionError: division by zero
`),
  fileNotFound: TRACEBACK(`    df = pd.read_csv("data.csv")
FileNotFoundError: [Errno 2] No such file or directory: 'data.csv'
`),
  subprocessNmap: `Traceback (most recent call last):
  File "/work/scan.py", line 5, in <module>
    out = subprocess.run(["nmap", "-sV", host], capture_output=True, text=True)
          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/subprocess.py", line 548, in run
    with Popen(*popenargs, **kwargs) as process:
         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/subprocess.py", line 1026, in __init__
    self._execute_child(args, executable, preexec_fn, close_fds,
  File "/usr/lib/python3.11/subprocess.py", line 1950, in _execute_child
    raise child_exception_type(errno_num, err_msg, err_filename)
FileNotFoundError: [Errno 2] No such file or directory: 'nmap'
`,
  subprocessOwnScript: `Traceback (most recent call last):
  File "/work/main.py", line 4, in <module>
    subprocess.run(["./build.sh"], check=True)
  File "/usr/lib/python3.11/subprocess.py", line 548, in run
    with Popen(*popenargs, **kwargs) as process:
         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/subprocess.py", line 1026, in __init__
    self._execute_child(args, executable, preexec_fn, close_fds,
  File "/usr/lib/python3.11/subprocess.py", line 1950, in _execute_child
    raise child_exception_type(errno_num, err_msg, err_filename)
FileNotFoundError: [Errno 2] No such file or directory: './build.sh'
`,
  pythonNmap: `Traceback (most recent call last):
  File "/work/scan.py", line 3, in <module>
    nm = nmap.PortScanner()
         ^^^^^^^^^^^^^^^^^^
  File "/work/.venv/lib/python3.11/site-packages/nmap/nmap.py", line 136, in __init__
    raise PortScannerError(
nmap.nmap.PortScannerError: 'nmap program was not found in path. PATH is : /work/.venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
`,
  osSystem: `Scanning 10.0.0.1 ...
sh: 1: nmap: not found
Traceback (most recent call last):
  File "/work/scan.py", line 9, in <module>
    raise SystemExit("scan failed")
SystemExit: scan failed
`,
  syntax: `  File "/work/main.py", line 12
    print("unterminated)
          ^
SyntaxError: unterminated string literal (detected at line 12)
`,
};

describe('classifyPythonFailure: run', () => {
  it.each([
    ['ModuleNotFoundError', RUN.noModule, 1, 'MissingDep'],
    ['cannot import name from a namespace package', RUN.noSubmodule, 1, 'MissingDep'],
    ['cannot import name from an installed package (Python names its file): a code error', RUN.cannotImportName, 1, 'Runtime'],
    ['cannot import name without a module (Python 2 style)', TRACEBACK(`    from yaml import CLoader\nImportError: cannot import name CLoader\n`), 1, 'MissingDep'],
    ['subprocess cannot find nmap', RUN.subprocessNmap, 1, 'SystemLib'],
    ['subprocess cannot find the project\'s own script', RUN.subprocessOwnScript, 1, 'Runtime'],
    ['python-nmap cannot find nmap', RUN.pythonNmap, 1, 'SystemLib'],
    ['os.system: sh: nmap: not found', RUN.osSystem, 1, 'SystemLib'],
    ['pandas optional dependency', RUN.optionalDep, 1, 'MissingDep'],
    ['pkg_resources DistributionNotFound', RUN.distributionNotFound, 1, 'MissingDep'],
    ['libGL for opencv', RUN.libGL, 1, 'SystemLib'],
    ['libsndfile through cffi', RUN.sndfile, 1, 'SystemLib'],
    ['tkinter without python3-tk', RUN.tkinter, 1, 'SystemLib'],
    ['libstdc++ too old', RUN.glibcxx, 1, 'SystemLib'],
    ['circular import in the program', RUN.circular, 1, 'Runtime'],
    ['numpy allocation failure', RUN.numpyMemory, 1, 'Runtime'],
    ['MemoryError', RUN.memoryError, 1, 'Runtime'],
    ['killed for memory', 'Killed\n', 137, 'Runtime'],
    ['ZeroDivisionError', RUN.zeroDivision, 1, 'Runtime'],
    ['FileNotFoundError', RUN.fileNotFound, 1, 'Runtime'],
    ['SyntaxError', RUN.syntax, 1, 'Runtime'],
    ['sys.exit(2) without output', '', 2, 'Runtime'],
    ['killed by a signal', '', null, 'Runtime'],
  ])('%s -> %s', (_what, output, exitCode, expected) => {
    expect(run(output, exitCode)).toBe(expected);
  });

  it('classifies exit 137 as Runtime even when the output mentions a missing module', () => {
    expect(run(`${RUN.noModule}\nenvgap: the container was killed for exceeding its memory limit (OOMKilled)`, 137)).toBe('Runtime');
  });

  it('classifies a timeout as Timeout', () => {
    expect(classifyPythonFailure({ step: 'run', exitCode: 137, timedOut: true, output: RUN.noModule })).toBe('Timeout');
  });
  it('classes what the machine cannot give as Environment, before its own rules, at run only', () => {
    const redis = TRACEBACK(`    r.incr("hits")
  File "/work/.venv/lib/python3.11/site-packages/redis/connection.py", line 707, in connect
    raise ConnectionError(self._error_message(e))
redis.exceptions.ConnectionError: Error 111 connecting to localhost:6379. Connection refused.
`);
    expect(run(redis)).toBe('Environment');
    expect(run(TRACEBACK('    s3.list_buckets()\nbotocore.exceptions.NoCredentialsError: Unable to locate credentials\n'))).toBe('Environment');
    expect(classifyPythonFailure({ step: 'run', exitCode: null, timedOut: true, output: redis })).toBe('Timeout');
    expect(install("WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/requests/\nERROR: Could not find a version that satisfies the requirement requests (from versions: none)\nERROR: No matching distribution found for requests\n")).not.toBe('Environment');
  });
});

describe('errorTail', () => {
  it('keeps the last 40 lines by default', () => {
    const output = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n');
    const tail = errorTail(output);
    expect(tail.split('\n')).toHaveLength(40);
    expect(tail.startsWith('line 61\n')).toBe(true);
    expect(tail.endsWith('line 100')).toBe(true);
  });

  it('respects maxLines and maxChars, starting on a whole line', () => {
    const output = Array.from({ length: 10 }, (_, i) => `${i}`.repeat(10)).join('\n');
    expect(errorTail(output, 3)).toBe('7777777777\n8888888888\n9999999999');
    expect(errorTail(output, 40, 25)).toBe('8888888888\n9999999999');
  });

  it('keeps the end of one overlong line', () => {
    expect(errorTail('x'.repeat(5000) + 'END', 40, 10)).toBe('xxxxxxxEND');
  });

  it('drops trailing blank lines, ANSI colours and progress redraws', () => {
    const output = '\x1b[31mERROR: No matching distribution found for foo\x1b[0m\r\n' +
      '   10% |###    |\r   50% |#####  |\r  100% |#######|\n\n   \n';
    expect(errorTail(output)).toBe('ERROR: No matching distribution found for foo\n  100% |#######|');
  });

  it('returns an empty string for empty output', () => {
    expect(errorTail('')).toBe('');
    expect(errorTail('\n\n')).toBe('');
  });

  it('keeps the final error lines of a long pip log within 4000 characters', () => {
    const tail = errorTail(PIP.pgConfig.repeat(20));
    expect(tail.length).toBeLessThanOrEqual(4000);
    expect(tail).toMatch(/hint: See above for details\.$/);
  });
});

// Python 3.11 in the python image, a fork loop at --pids-limit 64.
const FORK_BOMB = `Traceback (most recent call last):
  File "/work/main.py", line 5, in <module>
    pid = os.fork()
          ^^^^^^^^^
BlockingIOError: [Errno 11] Resource temporarily unavailable
`;

describe('resource limits (src/ecosystems/resourceLimits.ts, classed before these rules)', () => {
  it('a fork refused at the pids limit is PidsLimit from the output alone, where no counters came back', () => {
    expect(resourceLimitHit({ exitCode: 1, timedOut: false, output: FORK_BOMB }, { memory_mb: 256, pids: 64 })?.errorClass).toBe('PidsLimit');
  });

  it('a BlockingIOError of a non-blocking socket is no fork failure', () => {
    const socket = `Traceback (most recent call last):\n  File "/work/main.py", line 4, in <module>\n    s.recv(10)\nBlockingIOError: [Errno 11] Resource temporarily unavailable\n`;
    expect(resourceLimitHit({ exitCode: 1, timedOut: false, output: socket }, { memory_mb: 256, pids: 64 })).toBeNull();
    expect(run(socket)).toBe('Runtime');
  });

  it('what reaches the classifier hit no limit: the same fork failure is Runtime there', () => {
    expect(run(FORK_BOMB)).toBe('Runtime');
  });
});
