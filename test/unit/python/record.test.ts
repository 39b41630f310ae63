import {
  buildFileIndex,
  InstalledDistribution,
  mapFilesToDistributions,
  sourceOfCachedBytecode,
} from '../../../src/ecosystems/python/record';

const SITE = '/work/.venv/lib/python3.11/site-packages';

// RECORD excerpts as importlib.metadata reads them in a venv after `pip install numpy python-dateutil`.
const numpy: InstalledDistribution = {
  name: 'numpy', version: '1.26.4', location: SITE,
  files: [
    '../../../bin/f2py',
    'numpy-1.26.4.dist-info/METADATA',
    'numpy-1.26.4.dist-info/RECORD',
    'numpy-1.26.4.dist-info/entry_points.txt',
    'numpy.libs/libgfortran-040039e1.so.5.0.0',
    'numpy.libs/libopenblas64_p-r0-0cf96a72.3.23.dev.so',
    'numpy.libs/libquadmath-96973f99.so.0.0.0',
    'numpy/__init__.py',
    'numpy/__pycache__/__init__.cpython-311.pyc',
    'numpy/core/__init__.py',
    'numpy/core/_multiarray_umath.cpython-311-x86_64-linux-gnu.so',
    'numpy/version.py',
  ],
};
const dateutil: InstalledDistribution = {
  name: 'python-dateutil', version: '2.8.2', location: SITE,
  files: [
    'dateutil/__init__.py',
    'dateutil/parser/__init__.py',
    'dateutil/parser/_parser.py',
    'dateutil/tz/tz.py',
    'python_dateutil-2.8.2.dist-info/METADATA',
  ],
};
// six is a single module at the top of site-packages; its __pycache__ file is not in the RECORD.
const six: InstalledDistribution = {
  name: 'six', version: '1.16.0', location: SITE,
  files: ['six-1.16.0.dist-info/METADATA', 'six-1.16.0.dist-info/RECORD', 'six.py'],
};
const setuptools: InstalledDistribution = {
  name: 'setuptools', version: '68.2.2', location: SITE,
  files: [
    '_distutils_hack/__init__.py',
    '_distutils_hack/__pycache__/__init__.cpython-311.pyc',
    'distutils-precedence.pth',
    'pkg_resources/__init__.py',
    'setuptools-68.2.2.dist-info/METADATA',
    'setuptools/__init__.py',
  ],
};
const pyyaml: InstalledDistribution = {
  name: 'PyYAML', version: '6.0.1', location: SITE,
  files: ['_yaml/__init__.py', 'yaml/__init__.py', 'yaml/_yaml.cpython-311-x86_64-linux-gnu.so', 'PyYAML-6.0.1.dist-info/METADATA'],
};
const DISTS = [numpy, dateutil, six, setuptools, pyyaml];

// What `python -c pass` opens in that venv.
const BASELINE = [
  '/work/.venv/bin/python',
  '/usr/lib/python3.11/os.py',
  `${SITE}/distutils-precedence.pth`,
  `${SITE}/_distutils_hack/__pycache__/__init__.cpython-311.pyc`,
];

describe('buildFileIndex', () => {
  it('maps absolute normalised paths to PEP 503 names, resolving ../ in RECORD paths', () => {
    const index = buildFileIndex(DISTS);
    expect(index.get('/work/.venv/bin/f2py')).toBe('numpy');
    expect(index.get(`${SITE}/numpy.libs/libopenblas64_p-r0-0cf96a72.3.23.dev.so`)).toBe('numpy');
    expect(index.get(`${SITE}/dateutil/tz/tz.py`)).toBe('python-dateutil');
    expect(index.get(`${SITE}/yaml/__init__.py`)).toBe('pyyaml');
    expect(index.get(`${SITE}/six.py`)).toBe('six');
    expect(index.has(`${SITE}/__pycache__/six.cpython-311.pyc`)).toBe(false);
  });

  it('keeps the first distribution when two RECORDs list one path', () => {
    const a = { name: 'google-api-core', version: '1', location: SITE, files: ['google/__init__.py', 'google/api_core/x.py'] };
    const b = { name: 'protobuf', version: '3', location: SITE, files: ['google/__init__.py', 'google/protobuf/x.py'] };
    expect(buildFileIndex([a, b]).get(`${SITE}/google/__init__.py`)).toBe('google-api-core');
    expect(buildFileIndex([b, a]).get(`${SITE}/google/__init__.py`)).toBe('protobuf');
  });

  it('accepts absolute RECORD paths and a location with a trailing slash', () => {
    const d = { name: 'Data_Pkg', version: '1', location: `${SITE}/`, files: ['/usr/share/data-pkg/x.dat', './data_pkg/__init__.py'] };
    const index = buildFileIndex([d]);
    expect(index.get('/usr/share/data-pkg/x.dat')).toBe('data-pkg');
    expect(index.get(`${SITE}/data_pkg/__init__.py`)).toBe('data-pkg');
  });
});

describe('sourceOfCachedBytecode', () => {
  it.each([
    ['/s/numpy/__pycache__/version.cpython-311.pyc', '/s/numpy/version.py'],
    ['/s/__pycache__/six.cpython-311.pyc', '/s/six.py'],
    ['/s/pkg/__pycache__/__init__.cpython-312.opt-1.pyc', '/s/pkg/__init__.py'],
    ['/s/pkg/__pycache__/mod.cpython-311.opt-2.pyc', '/s/pkg/mod.py'],
    ['/s/pkg/__pycache__/mod.pypy39.pyc', '/s/pkg/mod.py'],
  ])('%s -> %s', (pyc, source) => {
    expect(sourceOfCachedBytecode(pyc)).toBe(source);
  });

  it.each(['/s/pkg/mod.py', '/s/pkg/mod.pyc', '/s/pkg/__pycache__/README'])('%s is no cached bytecode', (path) => {
    expect(sourceOfCachedBytecode(path)).toBeNull();
  });
});

describe('mapFilesToDistributions', () => {
  it('maps a numpy program, including its bundled shared objects reached through ../', () => {
    const opened = [
      '/work/.venv/bin/python',
      '/usr/lib/python3.11/encodings/__pycache__/__init__.cpython-311.pyc',
      `${SITE}/distutils-precedence.pth`,
      `${SITE}/_distutils_hack/__pycache__/__init__.cpython-311.pyc`,
      `${SITE}/numpy/core/../../numpy.libs/libopenblas64_p-r0-0cf96a72.3.23.dev.so`,
    ];
    expect(mapFilesToDistributions(opened, DISTS, { baselinePaths: BASELINE })).toEqual(['numpy']);
  });

  it('maps python-dateutil and the six it imports, through six.py for an unlisted __pycache__ file', () => {
    const opened = [
      `${SITE}/dateutil/__pycache__/__init__.cpython-311.pyc`,
      `${SITE}/dateutil/parser/__pycache__/_parser.cpython-311.pyc`,
      `${SITE}/__pycache__/six.cpython-311.pyc`,
      `${SITE}/dateutil/tz/__pycache__/tz.cpython-311.pyc`,
    ];
    expect(mapFilesToDistributions(opened, DISTS, { baselinePaths: BASELINE })).toEqual(['python-dateutil', 'six']);
  });

  it('maps a console script from bin/ listed as ../../../bin/x', () => {
    expect(mapFilesToDistributions(['/work/.venv/bin/f2py'], DISTS)).toEqual(['numpy']);
  });

  it('never maps the standard library, the interpreter, the program or unknown folders', () => {
    const opened = [
      '/usr/lib/python3.11/os.py',
      '/usr/lib/python3.11/json/__pycache__/__init__.cpython-311.pyc',
      '/usr/lib/python3.11/lib-dynload/_json.cpython-311-x86_64-linux-gnu.so',
      '/usr/bin/python3.11',
      '/work/main.py',
      '/etc/ld.so.cache',
      // a folder named like a package but listed in no RECORD: no guessing
      `${SITE}/requests/__init__.py`,
      `${SITE}/numpy_extra/__init__.py`,
    ];
    expect(mapFilesToDistributions(opened, DISTS)).toEqual([]);
  });

  it('ignores the baseline, also for the source of a baseline __pycache__ file', () => {
    const baseline = [`${SITE}/_distutils_hack/__init__.py`];
    const opened = [`${SITE}/_distutils_hack/__pycache__/__init__.cpython-311.pyc`, `${SITE}/_distutils_hack/__init__.py`];
    expect(mapFilesToDistributions(opened, DISTS, { baselinePaths: baseline })).toEqual([]);
    expect(mapFilesToDistributions(opened, DISTS)).toEqual(['setuptools']);
  });

  it('compares baseline and opened paths normalised', () => {
    const baseline = new Set([`${SITE}/numpy/core/../__init__.py`]);
    expect(mapFilesToDistributions([`${SITE}/numpy/__init__.py`], DISTS, { baselinePaths: baseline })).toEqual([]);
  });

  it('never counts .pth files, even when a RECORD lists them and no baseline is given', () => {
    expect(mapFilesToDistributions([`${SITE}/distutils-precedence.pth`], DISTS)).toEqual([]);
  });

  it('does not count metadata reads (entry point scans, version lookups) as use', () => {
    const opened = [
      `${SITE}/numpy-1.26.4.dist-info/entry_points.txt`,
      `${SITE}/numpy-1.26.4.dist-info/METADATA`,
      `${SITE}/python_dateutil-2.8.2.dist-info/METADATA`,
      `${SITE}/six-1.16.0.dist-info/RECORD`,
    ];
    expect(mapFilesToDistributions(opened, DISTS)).toEqual([]);
  });

  it('returns sorted unique PEP 503 names', () => {
    const opened = [`${SITE}/yaml/__init__.py`, `${SITE}/six.py`, `${SITE}/yaml/_yaml.cpython-311-x86_64-linux-gnu.so`, `${SITE}/numpy/__init__.py`];
    expect(mapFilesToDistributions(opened, DISTS)).toEqual(['numpy', 'pyyaml', 'six']);
  });

  it('handles distributions in several locations (system and venv site-packages)', () => {
    const system = { name: 'certifi', version: '2023.7.22', location: '/usr/lib/python3/dist-packages', files: ['certifi/__init__.py', 'certifi/cacert.pem'] };
    expect(mapFilesToDistributions(['/usr/lib/python3/dist-packages/certifi/cacert.pem', `${SITE}/six.py`], [...DISTS, system])).toEqual(['certifi', 'six']);
  });

  it('returns nothing for no opened files or no distributions', () => {
    expect(mapFilesToDistributions([], DISTS)).toEqual([]);
    expect(mapFilesToDistributions([`${SITE}/six.py`], [])).toEqual([]);
  });
});
