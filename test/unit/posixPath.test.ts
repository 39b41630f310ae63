import { joinPosixPath, normalizePosixPath, posixDirname } from '../../src/ecosystems/posixPath';

describe('posix path helpers', () => {
  it.each([
    ['/usr/lib/python3.11/../python3.11/os.py', '/usr/lib/python3.11/os.py'],
    ['/usr//lib/./x', '/usr/lib/x'],
    ['/../x', '/x'],
    ['/a/b/', '/a/b'],
    ['/', '/'],
    ['./a/b', 'a/b'],
    ['a/../..', '..'],
    ['../x/../y', '../y'],
    ['.', '.'],
    ['', '.'],
  ])('normalizePosixPath(%j) = %j', (input, expected) => {
    expect(normalizePosixPath(input)).toBe(expected);
  });

  it('joins relative children and keeps absolute ones', () => {
    expect(joinPosixPath('/usr/local/lib/python3.11/site-packages', '../../../bin/f2py')).toBe('/usr/local/bin/f2py');
    expect(joinPosixPath('requirements', 'base.txt')).toBe('requirements/base.txt');
    expect(joinPosixPath('.', 'base.txt')).toBe('base.txt');
    expect(joinPosixPath('requirements', '/etc/reqs.txt')).toBe('/etc/reqs.txt');
  });

  it('takes directory names', () => {
    expect(posixDirname('requirements.txt')).toBe('.');
    expect(posixDirname('requirements/dev.txt')).toBe('requirements');
    expect(posixDirname('/requirements.txt')).toBe('/');
    expect(posixDirname('./a/b/c.txt')).toBe('a/b');
  });
});
