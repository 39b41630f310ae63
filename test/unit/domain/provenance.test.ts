import { parseToolVersions } from '../../../src/domain/toolVersions';
import { withoutCredentials } from '../../../src/domain/urlCredentials';
import { packageIndexes, recipeHashOfTag } from '../../../src/infra/provenance';

describe('withoutCredentials', () => {
  it.each([
    ['https://user:s3cret@pypi.example.org/simple/', 'https://pypi.example.org/simple/'],
    ['https://token@npm.example.org/', 'https://npm.example.org/'],
    ['http://mirror.local:3141/root/pypi/+simple/', 'http://mirror.local:3141/root/pypi/+simple/'],
    ['https://repo.example.org/maven2?token=abc&flavour=x', 'https://repo.example.org/maven2?flavour=x'],
    ['/srv/wheelhouse', '/srv/wheelhouse'],
  ])('%s -> %s', (input, expected) => {
    expect(withoutCredentials(input)).toBe(expected);
  });
});

describe('packageIndexes', () => {
  it('lists the configured indexes only, none with its credentials', () => {
    const indexes = packageIndexes({ pipIndexUrl: 'https://ci:hunter2@pypi.example.org/simple', npmRegistry: 'https://registry.npmjs.org/', debianMirror: 'http://deb.debian.org/debian' });
    expect(indexes).toEqual({ pip_index_url: 'https://pypi.example.org/simple', npm_registry: 'https://registry.npmjs.org/', debian_mirror: 'http://deb.debian.org/debian' });
    expect(JSON.stringify(indexes)).not.toContain('hunter2');
  });
});

describe('parseToolVersions', () => {
  // The script's output in the Python, Java and C++ runtime images (Debian bookworm).
  const OUTPUT = [
    'python3\tPython 3.11.2',
    'pip\tpip 23.0.1 from /opt/venv/lib/python3.11/site-packages/pip (python 3.11)',
    'java\topenjdk version "17.0.13" 2024-10-15',
    'mvn\t\x1b[1mApache Maven 3.8.7\x1b[m',
    'node\tv18.20.4',
    'cmake\tcmake version 3.25.1',
    'g++\tg++ (Debian 12.2.0-14) 12.2.0',
    'strace\tstrace -- version 6.1',
    'npm\t',
  ].join('\n');

  it('reads each tool\'s version from the first line it printed', () => {
    expect(parseToolVersions(OUTPUT)).toEqual({ python: '3.11.2', pip: '23.0.1', java: '17.0.13', mvn: '3.8.7', node: '18.20.4', cmake: '3.25.1', 'g++': '12.2.0', strace: '6.1' });
  });

  it('is empty for no output', () => {
    expect(parseToolVersions('')).toEqual({});
  });
});

test('the recipe hash is the tag\'s suffix', () => {
  expect(recipeHashOfTag('envgap/python:3f2a9c01d2e4')).toBe('3f2a9c01d2e4');
});
