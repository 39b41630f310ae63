import { classifyAptFailure } from '../../src/ecosystems/aptFailure';

const f = (output: string, timedOut = false) => classifyAptFailure({ exitCode: 100, timedOut, output });

test('an unknown package is a missing dependency', () => {
  expect(f('Reading package lists...\nBuilding dependency tree...\nE: Unable to locate package libfoo-dev\n')).toBe('MissingDep');
  expect(f("Package python-dev is not available, but is referred to by another package.\nE: Package 'python-dev' has no installation candidate\n")).toBe('MissingDep');
});

test('a network fault is a fetch failure', () => {
  expect(f('Err:1 http://deb.debian.org/debian bookworm/main amd64 libssl-dev amd64 3.0.11-1\n  Temporary failure resolving \'deb.debian.org\'\nE: Failed to fetch http://deb.debian.org/...\n')).toBe('FetchFail');
});

test('a timeout wins; anything else is Other', () => {
  expect(f('E: Unable to locate package x', true)).toBe('Timeout');
  expect(f('dpkg: error processing package foo (--configure):\n installed foo package post-installation script subprocess returned error exit status 1\n')).toBe('Other');
});
