import { withoutAptPackages } from '../../../../src/ecosystems/removal/aptRemoval';

describe('apt.txt without a package', () => {
  test('a word goes; a line left empty goes; pins, architectures and comments are handled', () => {
    const text = 'libcurl4-openssl-dev\nlibsqlite3-dev=3.40.1-2 zlib1g-dev # compression\nlibssl-dev:amd64\n# keep me\n';
    const r = withoutAptPackages({ 'apt.txt': text }, ['libsqlite3-dev', 'libssl-dev', 'nope']);
    expect(r.files['apt.txt']).toBe('libcurl4-openssl-dev\nzlib1g-dev # compression\n# keep me\n');
    expect(r).toMatchObject({ removed: ['libsqlite3-dev', 'libssl-dev'], notFound: ['nope'] });
  });

  test('without apt.txt nothing is found', () => {
    expect(withoutAptPackages({}, ['x'])).toMatchObject({ removed: [], notFound: ['x'], files: {} });
  });
});
