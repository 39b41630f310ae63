import { diffInstalled, parsePipListJson } from '../../../src/ecosystems/python/piplist';

const BEFORE = '[{"name": "pip", "version": "23.2.1"}, {"name": "setuptools", "version": "68.2.2"}, {"name": "wheel", "version": "0.41.2"}]';
const AFTER = JSON.stringify([
  { name: 'certifi', version: '2023.11.17' },
  { name: 'charset-normalizer', version: '3.3.2' },
  { name: 'idna', version: '3.6' },
  { name: 'pip', version: '23.2.1' },
  { name: 'python-dateutil', version: '2.8.2' },
  { name: 'PyYAML', version: '6.0.1' },
  { name: 'requests', version: '2.31.0' },
  { name: 'setuptools', version: '69.0.2' },
  { name: 'six', version: '1.16.0' },
  { name: 'urllib3', version: '2.1.0' },
  { name: 'wheel', version: '0.41.2' },
  { name: 'mylib', version: '0.1.0', editable_project_location: '/work/mylib' },
]);

describe('parsePipListJson', () => {
  it('parses pip list --format=json output, keeping names as printed', () => {
    expect(parsePipListJson(BEFORE)).toEqual([
      { name: 'pip', version: '23.2.1' },
      { name: 'setuptools', version: '68.2.2' },
      { name: 'wheel', version: '0.41.2' },
    ]);
    expect(parsePipListJson(AFTER).find((p) => p.name === 'mylib')).toEqual({ name: 'mylib', version: '0.1.0' });
    expect(parsePipListJson('[]\n')).toEqual([]);
  });

  it('finds the JSON line when pip warnings are mixed in', () => {
    const mixed = `WARNING: Ignoring invalid distribution ~umpy (/usr/local/lib/python3.11/site-packages)
${BEFORE}

[notice] A new release of pip is available: 23.2.1 -> 23.3.2
[notice] To update, run: pip install --upgrade pip
`;
    expect(parsePipListJson(mixed).map((p) => p.name)).toEqual(['pip', 'setuptools', 'wheel']);
  });

  it.each([
    ['', /not a JSON array/],
    ['Package    Version\n---------- -------\npip        23.2.1', /not a JSON array/],
    ['{"name": "pip", "version": "23.2.1"}', /not a JSON array/],
    ['[{"name": "pip", "version": "23.2.1"', /not a JSON array/],
    ['[{"name": "pip"}]', /entry 0 .*"version"/],
    ['[null]', /entry 0/],
    ['[{"name": 3, "version": "1"}]', /entry 0/],
  ])('throws a clear error on %j', (text, message) => {
    expect(() => parsePipListJson(text)).toThrow(message);
  });
});

describe('diffInstalled', () => {
  it('lists new and upgraded distributions, normalised and sorted', () => {
    expect(diffInstalled(parsePipListJson(BEFORE), parsePipListJson(AFTER))).toEqual([
      'certifi', 'charset-normalizer', 'idna', 'mylib', 'python-dateutil', 'pyyaml', 'requests', 'setuptools', 'six', 'urllib3',
    ]);
  });

  it('matches names across spellings and ignores removals', () => {
    const before = [{ name: 'PyYAML', version: '6.0.1' }, { name: 'typing_extensions', version: '4.8.0' }, { name: 'gone', version: '1' }];
    const after = [{ name: 'pyyaml', version: '6.0.1' }, { name: 'typing-extensions', version: '4.9.0' }, { name: 'Zope.Interface', version: '6.1' }];
    expect(diffInstalled(before, after)).toEqual(['typing-extensions', 'zope-interface']);
  });

  it('is empty when nothing changed', () => {
    expect(diffInstalled(parsePipListJson(BEFORE), parsePipListJson(BEFORE))).toEqual([]);
    expect(diffInstalled([], [])).toEqual([]);
  });
});
