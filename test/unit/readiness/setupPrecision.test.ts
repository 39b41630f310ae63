import type { ReadinessRecord } from '../../../src/domain/readiness';
import { SetupPrecision } from '../../../src/domain/setupPrecision';
import { parseStraceOpenedFiles } from '../../../src/ecosystems/strace';
import { computeReadinessMetrics, formatReadinessTable, readinessToCsv } from '../../../src/metrics/readiness';
import { summariseSetupPrecision } from '../../../src/metrics/readiness/setupPrecision';
import { pyramidTable } from '../../../src/cli/readinessTable';
import { parseDistIndex } from '../../../src/ecosystems/python/distIndex';
import { parseDpkgQuery, parseListing, parseNpmGlobal, type EnvironmentListing } from '../../../src/readiness/setupListing';
import { dpkgCandidatePaths, installedByAgent, npmPackagesOpened, setupPrecision, usedByTrace } from '../../../src/readiness/setupPrecision';
import { failedSetupPrecision, planSetupTrace } from '../../../src/readiness/setupTrace';
import { skipped } from '../../../src/readiness/stages';

const dist = (name: string, version: string, files: string[], location = '/opt/venv/lib/python3.11/site-packages') => ({ name, version, location, files });

/** The readiness image's system interpreter, then a venv where the agent installed tabulate (used) and six (unused). */
const base: EnvironmentListing = {
  python: [dist('pip', '23.0.1', [], '/usr/lib/python3/dist-packages'), dist('setuptools', '66.1.1', [], '/usr/lib/python3/dist-packages'), dist('wheel', '0.38.4', [], '/usr/lib/python3/dist-packages')],
  apt: [{ name: 'libc6', version: '2.36-9' }, { name: 'bash', version: '5.2.15-2' }, { name: 'strace', version: '6.1-0.1' }],
  npm: [],
  npmRoot: null,
};
const frozen: EnvironmentListing = {
  python: [
    dist('pip', '23.0.1', ['pip/__init__.py']),
    dist('setuptools', '66.1.1', ['_distutils_hack/__init__.py', 'distutils-precedence.pth']),
    dist('tabulate', '0.9.0', ['tabulate/__init__.py', 'tabulate/__pycache__/__init__.cpython-311.pyc', '../../../bin/tabulate']),
    dist('six', '1.16.0', ['six.py']),
  ],
  apt: [...base.apt, { name: 'jq', version: '1.6-2.1' }, { name: 'libjq1', version: '1.6-2.1' }, { name: 'libonig5', version: '6.9.8-1' }, { name: 'tree', version: '2.1.0-1' }],
  npm: [{ name: 'left-pad', version: '1.3.0' }, { name: '@scope/tool', version: '2.0.0' }],
  npmRoot: '/usr/local/lib/node_modules',
};

const SP = '/opt/venv/lib/python3.11/site-packages';
/** strace -f of C1's entry: tabulate imported, jq run, one global npm package read; failures and relative paths ignored. */
const ENTRY_TRACE = [
  `101 execve("/usr/bin/bash", ["bash", "-c", "python report.py"], 0x7ffd /* 12 vars */) = 0`,
  `101 openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libc.so.6", O_RDONLY|O_CLOEXEC) = 3`,
  `102 execve("/opt/venv/bin/python", ["python", "report.py"], 0x5600 /* 12 vars */) = 0`,
  `102 openat(AT_FDCWD, "${SP}/distutils-precedence.pth", O_RDONLY|O_CLOEXEC) = 3`,
  `102 openat(AT_FDCWD, "${SP}/_distutils_hack/__init__.py", O_RDONLY|O_CLOEXEC) = 3`,
  `102 openat(AT_FDCWD, "${SP}/tabulate/__pycache__/__init__.cpython-311.pyc", O_RDONLY|O_CLOEXEC) = 3`,
  `102 openat(AT_FDCWD, "${SP}/six.py", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)`,
  `102 openat(AT_FDCWD, "relative.txt", O_RDONLY) = 3`,
  `103 execve("/usr/bin/jq", ["jq", "."], 0x5600 /* 12 vars */) = 0`,
  `103 openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libjq.so.1", O_RDONLY|O_CLOEXEC) = 3`,
  `103 openat(AT_FDCWD, "/usr/local/lib/node_modules/left-pad/index.js", O_RDONLY) = 3`,
].join('\n');
/** A bare `python -c pass`: the .pth hook's import, no distribution's use. */
const START = [`200 openat(AT_FDCWD, "${SP}/distutils-precedence.pth", O_RDONLY) = 3`, `200 openat(AT_FDCWD, "${SP}/_distutils_hack/__init__.py", O_RDONLY) = 3`];
/** dpkg -S of the regular files among the candidates (and their resolved paths). */
const DPKG_OWNERS = [
  'bash: /bin/bash',
  'libc6:amd64: /lib/x86_64-linux-gnu/libc.so.6',
  'jq: /usr/bin/jq',
  'libjq1:amd64: /usr/lib/x86_64-linux-gnu/libjq.so.1',
  'dpkg-query: no path found matching pattern /usr/lib/x86_64-linux-gnu/libc.so.6',
].join('\n');


describe('the listings of an environment', () => {
  it('dpkg-query: installed packages only', () => {
    expect(parseDpkgQuery('ii \tjq\t1.6-2.1\nrc \told\t1.0\nhi \theld\t2.0\n\ngarbage')).toEqual([{ name: 'jq', version: '1.6-2.1' }, { name: 'held', version: '2.0' }]);
  });

  it('npm ls -g: the global packages; no npm, none; a bad JSON names the file', () => {
    expect(parseNpmGlobal('{"name":"lib","dependencies":{"npm":{"version":"10.8.2"},"@scope/tool":{"version":"2.0.0"}}}')).toEqual([{ name: 'npm', version: '10.8.2' }, { name: '@scope/tool', version: '2.0.0' }]);
    expect(parseNpmGlobal('')).toEqual([]);
    expect(() => parseNpmGlobal('{', 'npm.json')).toThrow(/^npm\.json: not the JSON of npm ls/);
  });

  it('the distribution index: an interpreter that did not run lists nothing; a bad entry names the field', () => {
    expect(parseListing({ dists: '', dpkg: '', npm: '', npmRoot: '' }).python).toEqual([]);
    expect(parseDistIndex(JSON.stringify([dist('six', '1.16.0', ['six.py'])]), 'dists.json')).toEqual([dist('six', '1.16.0', ['six.py'])]);
    expect(() => parseDistIndex('[{"name": "x"}]', 'dists.json')).toThrow(/^dists\.json: entry 0 lacks/);
    expect(() => parseListing({ dists: '{', dpkg: '', npm: '', npmRoot: '' })).toThrow(/^dists\.json: not the distribution index's JSON/);
  });

  it('npm root only when it is a path', () => {
    expect(parseListing({ dists: '', dpkg: '', npm: '', npmRoot: '' }).npmRoot).toBeNull();
    expect(parseListing({ dists: '', dpkg: '', npm: '', npmRoot: '/usr/lib/node_modules\n' }).npmRoot).toBe('/usr/lib/node_modules');
  });
});

describe('what the agent installed and what the trace used', () => {
  it('installed: new or at another version than in the base image; a venv seed at the system version is not', () => {
    const installed = installedByAgent(base, frozen);
    expect(installed).toEqual({ python: ['six', 'tabulate'], apt: ['jq', 'libjq1', 'libonig5', 'tree'], npm: ['@scope/tool', 'left-pad'] });
    expect(installedByAgent(base, { ...frozen, python: [dist('pip', '24.0', [])] }).python).toEqual(['pip']);
  });

  it('dpkg candidates: system folders, both merged-/usr spellings, and programs of any bin folder (for their links)', () => {
    expect(dpkgCandidatePaths(['/lib/x86_64-linux-gnu/libc.so.6', '/usr/bin/jq', '/usr/local/bin/x', '/opt/venv/bin/python', '/opt/venv/lib/python3.11/site-packages/six.py', '/tmp/a', '/etc/ld.so.cache', '/repo/run.py'])).toEqual([
      '/bin/jq', '/etc/ld.so.cache', '/lib/x86_64-linux-gnu/libc.so.6', '/opt/venv/bin/python', '/usr/bin/jq', '/usr/lib/x86_64-linux-gnu/libc.so.6',
    ]);
  });

  it('npm: the top folder under the global root, scoped ones by scope and name', () => {
    expect(npmPackagesOpened(['/usr/lib/node_modules/a/x.js', '/usr/lib/node_modules/@s/b/y.js', '/usr/lib/node_modules/.bin/a', '/usr/lib/other/a'], '/usr/lib/node_modules')).toEqual(['@s/b', 'a']);
    expect(npmPackagesOpened(['/usr/lib/node_modules/a/x.js'], null)).toEqual([]);
  });

  it('used: distributions through their RECORD (the bare start subtracted), Debian packages through dpkg -S, npm by folder', () => {
    const opened = parseStraceOpenedFiles(ENTRY_TRACE);
    const used = usedByTrace(frozen, { opened, interpreterStart: parseStraceOpenedFiles(START.join('\n')), dpkgOwners: DPKG_OWNERS });
    expect(used).toEqual({ python: ['tabulate'], apt: ['bash', 'jq', 'libc6', 'libjq1'], npm: ['left-pad'] });
  });

  it('precision per kind and over all: used ∩ installed over installed', () => {
    const used = { python: ['tabulate'], apt: ['bash', 'jq', 'libc6', 'libjq1'], npm: ['left-pad'] };
    const traced = [{ stage: 'c1' as const, command: 'python report.py', exit_code: 0, timed_out: false }];
    const m = setupPrecision({ installed: installedByAgent(base, frozen), used, traced, python: '/opt/venv/bin/python', baseImage: 'envgap/readiness:x' });
    expect(m.kinds!.python).toEqual({ installed: ['six', 'tabulate'], used: ['tabulate'], installed_used: ['tabulate'], precision: 0.5 });
    expect(m.kinds!.apt).toMatchObject({ installed_used: ['jq', 'libjq1'], precision: 0.5 });
    expect(m.kinds!.npm.precision).toBe(0.5);
    expect([m.installed, m.installed_used, m.precision]).toEqual([8, 4, 0.5]);
    // Nothing traced: nothing could show use, so no precision (not 0); nothing installed: no precision either.
    const untraced = setupPrecision({ installed: installedByAgent(base, frozen), used, traced: [], python: null, baseImage: null });
    expect([untraced.precision, untraced.kinds!.python.precision]).toEqual([null, null]);
    const none = setupPrecision({ installed: { python: [], apt: [], npm: [] }, used, traced, python: null, baseImage: null });
    expect([none.precision, none.installed]).toEqual([null, 0]);
    expect(SetupPrecision.parse({ ...m, untraced: [], error: null })).toBeTruthy();
  });
});

describe('which commands are traced', () => {
  const ran = { ...skipped('no_entry'), status: 'success' as const, skip_reason: null };
  it('C1 where it ran; C2 where the repository has a GPU stage; C3, C4 never (they need GPUs)', () => {
    expect(planSetupTrace({ supports: ['cpu'], entry: { cpu: 'python run.py' } }, ran)).toEqual({
      c1: 'python run.py',
      c2: false,
      untraced: [{ stage: 'c2', reason: 'not_applicable' }, { stage: 'c3', reason: 'not_applicable' }, { stage: 'c4', reason: 'not_applicable' }],
    });
    expect(planSetupTrace({ supports: ['cpu', 'multi_gpu'], entry: { cpu: 'python run.py' } }, skipped('prepare_failed'))).toEqual({
      c1: null,
      c2: true,
      untraced: [{ stage: 'c1', reason: 'prepare_failed' }, { stage: 'c3', reason: 'not_applicable' }, { stage: 'c4', reason: 'needs_gpu' }],
    });
  });
  it('a failed measurement is a fault of the block', () => {
    const plan = planSetupTrace({ supports: ['cpu'], entry: { cpu: 'x' } }, ran);
    expect(failedSetupPrecision(plan, { kind: 'SetupTraceError', message: 'no strace' })).toMatchObject({ precision: null, kinds: null, error: { kind: 'SetupTraceError' } });
  });
});

describe('the mean setup precision per agent, under both denominators', () => {
  const measured = (precision: number | null, installed = 2): SetupPrecision => ({
    python: '/opt/venv/bin/python', base_image: 'b', installed, installed_used: precision === null ? 0 : Math.round(precision * installed), precision,
    kinds: { python: { installed: [], used: [], installed_used: [], precision }, apt: { installed: [], used: [], installed_used: [], precision: null }, npm: { installed: [], used: [], installed_used: [], precision: null } },
    traced: [{ stage: 'c1', command: 'x', exit_code: 0, timed_out: false }], untraced: [], error: null,
  });
  const record = (repo: string, setup: SetupPrecision | undefined, status: 'completed' | 'error' = 'completed'): ReadinessRecord => ({
    schema: 'envgap.readiness/v1', study: 's', agent: 'rec', repo, trial: 1, supports: ['cpu'], status, session: null, report: null, report_problem: null, violations: [],
    stages: { c0: { ...skipped('session_failed'), total: 0, missing: [] }, c1: skipped('session_failed'), c2: { ...skipped('session_failed'), observed: null }, c3: skipped('not_applicable'), c4: skipped('not_applicable'), c5: { ...skipped('session_failed'), path: 0, version: 0, capability: 0, findings: [] } },
    env_size_bytes: null, time_to_ready_s: null, gpu: null, error: status === 'error' ? { kind: 'docker', message: 'gone' } : null,
    ...(setup ? { setup_precision: setup } : {}),
  });

  it('faults counted as 0 beside the mean; jobs without a precision left out of both', () => {
    const plan = planSetupTrace({ supports: ['cpu'], entry: { cpu: 'x' } }, skipped('no_entry'));
    const records = [record('a', measured(1)), record('b', measured(0.5)), record('c', measured(null, 0)), record('d', undefined, 'error'), record('e', failedSetupPrecision(plan, { kind: 'X', message: 'y' }))];
    const s = summariseSetupPrecision(records);
    expect(s).toMatchObject({ jobs: 2, undefined_jobs: 1, mean: 0.75, harness_errors: 2, mean_errors_as_failures: 1.5 / 4, by_kind: { python: 0.75, apt: null, npm: null } });
    expect(s.mean_errors_delta).toBeCloseTo(1.5 / 4 - 0.75, 15);
    const m = computeReadinessMetrics(records, { mode: 'envgap' });
    expect(formatReadinessTable(m)).toContain('0.75 (0.38 with faults)');
    const [header, first] = readinessToCsv(m).split('\n');
    const row = Object.fromEntries(header!.split(',').map((h, i) => [h, first!.split(',')[i]]));
    expect(row).toMatchObject({ setup_precision_mean: '0.75', setup_precision_jobs: '2', setup_precision_harness_errors: '2', setup_precision_mean_errors_as_failures: '0.375', setup_precision_python: '0.75' });
    expect(pyramidTable(records)).toMatch(/^rec\s+b\s.*\s1\/2\s/m);
    expect(pyramidTable(records)).toMatch(/^rec\s+e\s.*\serror\s/m);
  });

  it('records from before setup precision: no faults counted against it', () => {
    expect(summariseSetupPrecision([record('a', undefined), record('d', undefined, 'error')])).toMatchObject({ jobs: 0, mean: null, harness_errors: 0, mean_errors_as_failures: null });
  });
});
