import { choosePythonEntry, findPythonEntry, isPythonTestModule } from '../../../src/ecosystems/python/entry';

const GUARD = 'def main():\n    print("hi")\n\n\nif __name__ == "__main__":\n    main()\n';
const GUARD_SINGLE = "import sys\n\nif __name__ == '__main__':\n    sys.exit(0)\n";
const LIBRARY = 'def helper():\n    return 1\n';

describe('findPythonEntry', () => {
  it.each([
    [{ 'main.py': LIBRARY, 'app.py': GUARD }, 'main.py'],
    [{ '__main__.py': LIBRARY, 'app.py': GUARD }, '__main__.py'],
    [{ 'app.py': LIBRARY, 'run.py': GUARD, 'cli.py': GUARD }, 'app.py'],
    [{ 'run.py': LIBRARY, 'cli.py': GUARD }, 'run.py'],
    [{ 'cli.py': LIBRARY, 'tool.py': GUARD }, 'cli.py'],
    [{ 'src/main.py': LIBRARY, 'tool.py': GUARD }, 'src/main.py'],
  ])('prefers conventional scripts in order: %j -> %s', (files, path) => {
    expect(findPythonEntry(files)).toEqual({ kind: 'script', path });
  });

  it('picks the only top-level script with a main guard, either quote style', () => {
    expect(findPythonEntry({ 'scraper.py': GUARD, 'utils.py': LIBRARY, 'requirements.txt': 'requests\n' })).toEqual({ kind: 'script', path: 'scraper.py' });
    expect(findPythonEntry({ 'analyze.py': GUARD_SINGLE, 'helpers.py': LIBRARY })).toEqual({ kind: 'script', path: 'analyze.py' });
  });

  it('ignores guards in nested files and in test and setup files', () => {
    const files = { 'tool.py': GUARD, 'pkg/other.py': GUARD, 'setup.py': GUARD, 'test_tool.py': GUARD, 'tool_test.py': GUARD, 'conftest.py': LIBRARY };
    expect(findPythonEntry(files)).toEqual({ kind: 'script', path: 'tool.py' });
  });

  it('runs the only top-level package with a __main__.py as a module', () => {
    const files = { 'mytool/__init__.py': '', 'mytool/__main__.py': 'from .cli import run\nrun()\n', 'mytool/cli.py': LIBRARY, 'setup.py': 'from setuptools import setup\nsetup()\n' };
    expect(findPythonEntry(files)).toEqual({ kind: 'module', module: 'mytool' });
  });

  it('falls back to the only top-level script', () => {
    expect(findPythonEntry({ 'solution.py': 'print(sum(range(10)))\n', 'README.md': '# x' })).toEqual({ kind: 'script', path: 'solution.py' });
  });

  it('returns null when nothing or more than one candidate fits', () => {
    expect(findPythonEntry({})).toBeNull();
    expect(findPythonEntry({ 'requirements.txt': 'numpy\n', 'README.md': '' })).toBeNull();
    expect(findPythonEntry({ 'a.py': GUARD, 'b.py': GUARD })).toBeNull();
    expect(findPythonEntry({ 'a.py': LIBRARY, 'b.py': LIBRARY })).toBeNull();
    expect(findPythonEntry({ 'setup.py': GUARD, 'pkg/__init__.py': '' })).toBeNull();
    expect(findPythonEntry({ 'lib/core.py': LIBRARY, 'tests/test_core.py': GUARD })).toBeNull();
  });

  it('never takes a test module: a program and tests.py both with a guard run the program', () => {
    expect(choosePythonEntry({ 'wordfreq.py': GUARD, 'tests.py': GUARD })).toEqual({
      entry: { kind: 'script', path: 'wordfreq.py' },
      reason: 'the only top-level script with a __main__ guard wordfreq.py (tests.py is a test module)',
    });
    expect(choosePythonEntry({ 'wordfreq.py': LIBRARY, 'test_wordfreq.py': GUARD, 'conftest.py': LIBRARY })).toEqual({
      entry: { kind: 'script', path: 'wordfreq.py' },
      reason: 'the only top-level script wordfreq.py (conftest.py, test_wordfreq.py are test modules)',
    });
    expect(findPythonEntry({ 'tests/__init__.py': '', 'tests/__main__.py': GUARD, 'tool.py': LIBRARY, 'util.py': LIBRARY })).toBeNull();
  });

  it('finds no entry in test modules alone, and says why', () => {
    const choice = choosePythonEntry({ 'test_core.py': GUARD });
    expect(choice.entry).toBeNull();
    expect(choice.reason).toBe('no entry point: no main.py/__main__.py/app.py/run.py/cli.py/src/main.py, no top-level script (test_core.py is a test module)');
    expect(choosePythonEntry({ 'a.py': GUARD, 'b.py': GUARD }).reason).toContain('2 top-level scripts with a __main__ guard (a.py, b.py)');
  });

  it('gives the rule that chose the entry', () => {
    expect(choosePythonEntry({ 'app.py': LIBRARY }).reason).toBe('conventional script app.py (first of main.py, __main__.py, app.py, run.py, cli.py, src/main.py)');
    expect(choosePythonEntry({ 'mytool/__main__.py': '' }).reason).toBe('the only top-level package with a __main__.py mytool (python -m mytool)');
  });

  it.each(['tests.py', 'test.py', 'test_x.py', 'x_test.py', 'conftest.py', 'tests/helpers.py', 'pkg/test/x.py'])('%s is a test module', (path) => {
    expect(isPythonTestModule(path)).toBe(true);
  });

  it.each(['testing.py', 'contest.py', 'latest.py', 'attest/x.py'])('%s is not a test module', (path) => {
    expect(isPythonTestModule(path)).toBe(false);
  });

  it('does not take a guard that is only mentioned in a string or comment line', () => {
    const files = { 'a.py': 'x = "if __name__ == \'__main__\': no"\n', 'b.py': GUARD };
    expect(findPythonEntry(files)).toEqual({ kind: 'script', path: 'b.py' });
  });
});
