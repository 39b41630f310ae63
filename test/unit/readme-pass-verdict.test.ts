import { lastLine, looksLikeNetworkTrouble, missingImportDiagnostics, scriptFailure, tailExcerpt } from '../../src/readme/passVerdict';
import { indexUrl, preflightCommand } from '../../src/readme/setupRunner';

const report = (diagnostics: object[]) => `No configuration file found.\n${JSON.stringify({ version: '1.1.414', generalDiagnostics: diagnostics, summary: {} }, null, 2)}\n`;

test('reportMissingImports: every diagnostic counts (EnvBench\'s issues_count), names are distinct top-level modules', () => {
  const r = missingImportDiagnostics(
    report([
      { file: '/repo/tests/test_a.py', rule: 'reportMissingImports', message: 'Import "pytest" could not be resolved', range: { start: { line: 2 } } },
      { file: '/repo/tests/test_b.py', rule: 'reportMissingImports', message: 'Import "pytest" could not be resolved', range: { start: { line: 0 } } },
      { file: '/repo/docs/conf.py', rule: 'reportMissingImports', message: 'Import "sphinx.application" could not be resolved', range: { start: { line: 9 } } },
      { file: '/repo/x.py', rule: 'reportAttributeAccessIssue', message: 'Cannot access attribute' },
    ]),
  );
  expect(r).toEqual({ count: 3, names: ['pytest', 'sphinx'], lines: ['tests/test_a.py:3: Import "pytest" could not be resolved', 'tests/test_b.py:1: Import "pytest" could not be resolved', 'docs/conf.py:10: Import "sphinx.application" could not be resolved'] });
  expect(missingImportDiagnostics(report([]))).toEqual({ count: 0, names: [], lines: [] });
});

test('pyright output without its report throws (a harness fault, not "nothing missing")', () => {
  expect(() => missingImportDiagnostics('Error: cannot find module\n')).toThrow(/no JSON report/);
});

test('why a script failed, in words', () => {
  expect(scriptFailure({ exitCode: 0, timedOut: false, oomKilled: false, output: 'ok' }, 600)).toBeNull();
  expect(scriptFailure({ exitCode: 1, timedOut: false, oomKilled: false, output: 'Collecting x\nERROR: No matching distribution found for x\n\n' }, 600)).toBe('script exited 1: ERROR: No matching distribution found for x');
  expect(scriptFailure({ exitCode: 2, timedOut: false, oomKilled: false, output: '' }, 600)).toBe('script exited 2');
  expect(scriptFailure({ exitCode: 124, timedOut: true, oomKilled: false, output: 'Building wheel' }, 600)).toBe('script timed out after 600 s');
  expect(scriptFailure({ exitCode: 137, timedOut: false, oomKilled: true, output: 'Killed' }, 600)).toBe('script killed for memory (exit 137)');
  expect(lastLine(`x\n${'y'.repeat(400)}\n`)).toHaveLength(301);
});

test('the tail of a long log, marked as cut', () => {
  expect(tailExcerpt('short')).toBe('short');
  expect(tailExcerpt('a'.repeat(10) + 'END', 5)).toBe('(8 earlier characters) …aaEND');
});

test('pip failing to reach a host is noticed', () => {
  expect(looksLikeNetworkTrouble("WARNING: Retrying ... NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection>: Failed to establish a new connection: [Errno 101] Network is unreachable')")).toBe(true);
  expect(looksLikeNetworkTrouble('ERROR: No matching distribution found for x')).toBe(false);
});

test('the preflight asks the configured index, else PyPI, for its page of pip', () => {
  expect(indexUrl(undefined)).toBe('https://pypi.org/simple/');
  expect(indexUrl('http://mirror:3141/root/pypi/+simple')).toBe('http://mirror:3141/root/pypi/+simple/');
  expect(preflightCommand("https://x/it's/")).toContain(`'https://x/it'\\''s/pip/'`);
});
