import type { StaticBaseline } from '../ecosystem';

/** Python 3.11 standard-library top-level modules (sys.stdlib_module_names, private ones left out). */
const STDLIB = new Set(
  `abc aifc antigravity argparse array ast asynchat asyncio asyncore atexit audioop base64 bdb binascii bisect builtins bz2 cProfile calendar cgi cgitb chunk cmath cmd code codecs codeop collections colorsys compileall concurrent configparser contextlib contextvars copy copyreg crypt csv ctypes curses dataclasses datetime dbm decimal difflib dis distutils doctest email encodings ensurepip enum errno faulthandler fcntl filecmp fileinput fnmatch fractions ftplib functools gc genericpath getopt getpass gettext glob graphlib grp gzip hashlib heapq hmac html http idlelib imaplib imghdr imp importlib inspect io ipaddress itertools json keyword lib2to3 linecache locale logging lzma mailbox mailcap marshal math mimetypes mmap modulefinder msilib msvcrt multiprocessing netrc nis nntplib nt ntpath nturl2path numbers opcode operator optparse os ossaudiodev pathlib pdb pickle pickletools pipes pkgutil platform plistlib poplib posix posixpath pprint profile pstats pty pwd py_compile pyclbr pydoc pydoc_data pyexpat queue quopri random re readline reprlib resource rlcompleter runpy sched secrets select selectors shelve shlex shutil signal site smtpd smtplib sndhdr socket socketserver spwd sqlite3 sre_compile sre_constants sre_parse ssl stat statistics string stringprep struct subprocess sunau symtable sys sysconfig syslog tabnanny tarfile telnetlib tempfile termios textwrap this threading time timeit tkinter token tokenize tomllib trace traceback tracemalloc tty turtle turtledemo types typing unicodedata unittest urllib uu uuid venv warnings wave weakref webbrowser winreg winsound wsgiref xdrlib xml xmlrpc zipapp zipfile zipimport zlib zoneinfo`.split(' '),
);

/** Import names whose distribution is named otherwise (after pipreqs' mapping, common packages only). */
export const PYTHON_DISTRIBUTIONS: Readonly<Record<string, string>> = {
  bs4: 'beautifulsoup4',
  cv2: 'opencv-python',
  dateutil: 'python-dateutil',
  dotenv: 'python-dotenv',
  google: 'protobuf',
  jwt: 'PyJWT',
  magic: 'python-magic',
  OpenSSL: 'pyOpenSSL',
  PIL: 'Pillow',
  serial: 'pyserial',
  sklearn: 'scikit-learn',
  skimage: 'scikit-image',
  yaml: 'PyYAML',
  Crypto: 'pycryptodome',
  docx: 'python-docx',
  pptx: 'python-pptx',
  attr: 'attrs',
  git: 'GitPython',
  psycopg2: 'psycopg2-binary',
  MySQLdb: 'mysqlclient',
  multipart: 'python-multipart',
  slugify: 'python-slugify',
  telegram: 'python-telegram-bot',
  websocket: 'websocket-client',
  zmq: 'pyzmq',
  usb: 'pyusb',
  win32api: 'pywin32',
  fitz: 'PyMuPDF',
  Levenshtein: 'python-Levenshtein',
  lxml: 'lxml',
  markdown: 'Markdown',
  jose: 'python-jose',
  nacl: 'PyNaCl',
  sentencepiece: 'sentencepiece',
  socks: 'PySocks',
  ruamel: 'ruamel.yaml',
};

/** Top-level modules the project's own files provide (a.py, pkg/__init__.py, pkg/ as namespace). */
function localModules(files: Record<string, string>): Set<string> {
  const local = new Set<string>();
  for (const p of Object.keys(files)) {
    const parts = p.split('/');
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      local.add(i === parts.length - 1 ? part.replace(/\.py$/, '') : part);
    }
  }
  return local;
}

/** The top-level modules a Python source imports (absolute imports only). */
export function pythonImports(source: string): string[] {
  const found = new Set<string>();
  const text = source.replace(/\\\n/g, ' ');
  for (const m of text.matchAll(/^[ \t]*import[ \t]+([^\n#;]+)/gm)) {
    for (const item of m[1]!.replace(/[()]/g, '').split(',')) {
      const name = item.trim().split(/\s+/)[0]!.split('.')[0]!;
      if (/^[A-Za-z_]\w*$/.test(name)) found.add(name);
    }
  }
  for (const m of text.matchAll(/^[ \t]*from[ \t]+([A-Za-z_][\w.]*)[ \t]+import\b/gm)) found.add(m[1]!.split('.')[0]!);
  return [...found].sort();
}

/** The distribution for an import name, or null for the standard library. */
export function pythonDistribution(module: string): string | null {
  if (STDLIB.has(module) || module === '__future__') return null;
  return PYTHON_DISTRIBUTIONS[module] ?? module;
}

/** requirements.txt for a project: one distribution a line, sorted, unpinned. */
export function inferPythonManifest(files: Record<string, string>): Record<string, string> {
  const local = localModules(files);
  const dists = new Set<string>();
  for (const [p, content] of Object.entries(files)) {
    if (!p.endsWith('.py')) continue;
    for (const m of pythonImports(content)) {
      if (local.has(m)) continue;
      const d = pythonDistribution(m);
      if (d) dists.add(d);
    }
  }
  return { 'requirements.txt': [...dists].sort().map((d) => `${d}\n`).join('') };
}

/** The module a Python error says is missing (ModuleNotFoundError / ImportError), mapped to its distribution. */
export function pythonMissingFromError(tail: string): string | null {
  const m = /No module named ['"]([A-Za-z_][\w.]*)['"]/.exec(tail);
  if (!m) return null;
  return pythonDistribution(m[1]!.split('.')[0]!);
}

/** The static baseline for Python: requirements.txt from the imports, and the distribution a ModuleNotFoundError names. */
export const PYTHON_STATIC: StaticBaseline = {
  manifestFiles: ['requirements.txt', 'apt.txt'],
  infer: (code) => inferPythonManifest(code),
  repair(previous, errorTail) {
    const dist = pythonMissingFromError(errorTail);
    const lines = (previous['requirements.txt'] ?? '').split('\n').filter((l) => l.trim() !== '');
    if (!dist || lines.some((l) => l.trim().toLowerCase() === dist.toLowerCase())) return null;
    return { ...previous, 'requirements.txt': [...lines, dist].sort().map((l) => `${l}\n`).join('') };
  },
};
