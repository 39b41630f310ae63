import { compareRuns, type ComparedRun } from '../../../../src/domain/confirmation/comparison';
import { normalisedRunOutput } from '../../../../src/domain/confirmation/runOutput';
import { trialKey } from '../../../../src/domain/confirmation/trialKey';

const base: ComparedRun = { success: true, failedStep: null, exitCode: 0, runKind: 'program', output: 'total: 3\nok' };

describe('a trial against the unchanged project', () => {
  test('the same exit and output: the same', () => {
    expect(compareRuns(base, { ...base }, true)).toEqual({ same: true });
  });

  test('how it broke: install, build (configure too), exit, output; each with an excerpt', () => {
    expect(compareRuns(base, { ...base, success: false, failedStep: 'install', exitCode: 1, output: null, errorOutput: 'ERROR: No matching distribution' }, true)).toEqual({
      same: false, how: 'install-failed', excerpt: 'install: ERROR: No matching distribution',
    });
    expect(compareRuns(base, { ...base, success: false, failedStep: 'system', exitCode: 100, output: null }, true)).toMatchObject({ how: 'install-failed' });
    expect(compareRuns(base, { ...base, success: false, failedStep: 'configure', exitCode: 1, output: null, errorOutput: 'Could not find OpenSSL' }, true)).toMatchObject({ how: 'build-failed' });
    expect(compareRuns(base, { ...base, success: false, failedStep: 'run', exitCode: 1, output: 'ModuleNotFoundError: No module named x', errorOutput: 'ModuleNotFoundError: No module named x' }, true)).toEqual({
      same: false, how: 'run-exit-differs', excerpt: 'exit 1, not 0: ModuleNotFoundError: No module named x',
    });
    expect(compareRuns(base, { ...base, output: 'total: 4\nok' }, true)).toEqual({ same: false, how: 'output-differs', excerpt: 'line 1: expected "total: 3", got "total: 4"' });
  });

  test('output is not compared when told so; a service that became a program is an exit that differs', () => {
    expect(compareRuns(base, { ...base, output: 'other' }, false)).toEqual({ same: true });
    expect(compareRuns({ ...base, runKind: 'service' }, base, true)).toMatchObject({ same: false, how: 'run-exit-differs' });
  });

  test('a long step output is cut to its end', () => {
    const c = compareRuns(base, { ...base, success: false, failedStep: 'build', exitCode: 1, output: null, errorOutput: `${'x'.repeat(1000)}THE END` }, true);
    expect(c.same === false && c.excerpt.endsWith('THE END') && c.excerpt.length <= 302).toBe(true);
  });

  test("Maven's failure: its first real [ERROR] line before the end, which is only Maven's advice", () => {
    const maven = [
      '[INFO] Compiling 2 source files',
      '\x1b[1;31m[ERROR]\x1b[m COMPILATION ERROR : ',
      '[ERROR] /work/src/main/java/calibration/Main.java:[3,32] package org.apache.commons.lang3 does not exist',
      '[ERROR] /work/src/main/java/calibration/Main.java:[20,7] cannot find symbol',
      '[INFO] BUILD FAILURE',
      ...Array.from({ length: 12 }, (_, i) => `[ERROR] Re-run Maven using the -X switch to enable full debug logging. (${i})`),
      '[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/MojoFailureException',
    ].join('\n');
    const c = compareRuns(base, { ...base, success: false, failedStep: 'build', exitCode: 1, output: null, errorOutput: maven }, true);
    expect(c).toMatchObject({ how: 'build-failed', excerpt: expect.stringMatching(/^build: \[ERROR\] \/work\/src\/main\/java\/calibration\/Main\.java:\[3,32\] package org\.apache\.commons\.lang3 does not exist\n…/) });
    expect(c.same === false && c.excerpt.endsWith('MojoFailureException') && c.excerpt.length <= 302).toBe(true);
    // Where the end says it already, the end alone.
    expect(compareRuns(base, { ...base, success: false, failedStep: 'configure', exitCode: 1, output: null, errorOutput: 'CMake Error: Could not find OpenSSL' }, true)).toMatchObject({ excerpt: 'configure: CMake Error: Could not find OpenSSL' });
  });
});

describe('run output, normalised', () => {
  test('times, durations, addresses, uuids, epochs and temporary paths are masked; line ends and trailing blanks too', () => {
    const a = 'started 2024-05-01T10:11:12.345Z in 12.5 ms\r\nobj at 0x7f3a2b1c9d00 id 123e4567-e89b-12d3-a456-426614174000 t=1717000000 /tmp/tmpab12cd  \n';
    const b = 'started 2026-12-03 07:01:02 in 3 ms\nobj at 0x55aa11bb22cc id 9b2e0c1a-0000-4000-8000-000000000001 t=1799999999 /tmp/xyz\n';
    expect(normalisedRunOutput(a)).toBe(normalisedRunOutput(b));
    expect(normalisedRunOutput('count: 3')).not.toBe(normalisedRunOutput('count: 4'));
  });
});

describe('trial keys', () => {
  test('the same removal, the same key, whatever the order; another removal or repeat, another key', () => {
    expect(trialKey({ declared: ['b', 'a'], installed: [] })).toBe(trialKey({ declared: ['a', 'b'], installed: [] }));
    expect(trialKey({ declared: ['a'], installed: [] })).not.toBe(trialKey({ declared: [], installed: ['a'] }));
    expect(trialKey({ declared: [], installed: [] })).toMatch(/^xbase-[0-9a-f]{8}$/);
    expect(trialKey({ declared: [], installed: [] }, 1)).toMatch(/^xbase-[0-9a-f]{8}-r1$/);
  });
});
