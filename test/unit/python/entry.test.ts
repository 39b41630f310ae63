import { findPythonEntry } from '../../../src/ecosystems/python/entry';

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

  it('does not take a guard that is only mentioned in a string or comment line', () => {
    const files = { 'a.py': 'x = "if __name__ == \'__main__\': no"\n', 'b.py': GUARD };
    expect(findPythonEntry(files)).toEqual({ kind: 'script', path: 'b.py' });
  });
});
