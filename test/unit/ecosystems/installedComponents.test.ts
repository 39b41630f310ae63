import { installedComponents, installedVersionMap } from '../../../src/ecosystems/installedComponents';
import { PYTHON } from '../../../src/ecosystems/python/ecosystem';
import { JAVA } from '../../../src/ecosystems/java/ecosystem';
import { JAVASCRIPT } from '../../../src/ecosystems/javascript/ecosystem';
import { extractLayer } from '../../../src/ecosystems/ecosystem';

// `pip list --format=json` in the venv before and after `pip install six python-dateutil` (pip 23, Python 3.11), with pip's notice mixed in.
const BEFORE = '[{"name": "pip", "version": "23.0.1"}, {"name": "setuptools", "version": "66.1.1"}]';
const AFTER = '[{"name": "pip", "version": "23.0.1"}, {"name": "python-dateutil", "version": "2.9.0.post0"}, {"name": "setuptools", "version": "66.1.1"}, {"name": "six", "version": "1.16.0"}]\n[notice] A new release of pip is available';

// `npm ls --all --json` (npm 10): debug@2 under send, debug@4 at the top, a scoped package, a skipped optional one.
const NPM_LS = `npm WARN config production Use \`--omit=dev\` instead.
${JSON.stringify({
  name: 'app', version: '1.0.0',
  dependencies: {
    debug: { version: '4.3.4', resolved: 'https://registry.npmjs.org/debug/-/debug-4.3.4.tgz', dependencies: { ms: { version: '2.1.2', resolved: 'https://registry.npmjs.org/ms/-/ms-2.1.2.tgz' } } },
    send: { version: '0.18.0', resolved: 'https://registry.npmjs.org/send/-/send-0.18.0.tgz', dependencies: { debug: { version: '2.6.9', resolved: 'https://registry.npmjs.org/debug/-/debug-2.6.9.tgz', dependencies: { ms: { version: '2.0.0', resolved: 'https://registry.npmjs.org/ms/-/ms-2.0.0.tgz' } } } } },
    '@babel/runtime': { version: '7.23.2', resolved: 'https://registry.npmjs.org/@babel/runtime/-/runtime-7.23.2.tgz' },
    '@img/sharp-darwin-arm64': {},
    leftpad: { required: '^1.0.0', missing: true },
  },
})}`;

// `mvn -B dependency:list` (maven-dependency-plugin 3.6.1), with a classifier and a test-scoped artifact.
const MVN = `[INFO] --- maven-dependency-plugin:3.6.1:list (default-cli) @ csv-report ---
[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/org/apache/commons/commons-csv/1.10.0/commons-csv-1.10.0.pom (20 kB at 95 kB/s)
[INFO] The following files have been resolved:
[INFO]    org.apache.commons:commons-csv:jar:1.10.0:compile -- module org.apache.commons.csv
[INFO]    com.fasterxml.jackson.core:jackson-databind:jar:2.15.2:compile -- module com.fasterxml.jackson.databind
[INFO]    org.openjfx:javafx-base:jar:linux:17.0.2:compile -- module javafx.base
[INFO]    org.opentest4j:opentest4j:jar:1.3.0:test -- module org.opentest4j
[INFO] BUILD SUCCESS`;

// The configure log of a CMake project with FetchContent and find_package/pkg_check_modules (CMake 3.25).
const CONFIGURE = `-- The CXX compiler identification is GNU 12.2.0
-- Populating tinyjson
-- Found OpenSSL: /usr/lib/x86_64-linux-gnu/libcrypto.so (found version "3.0.19")  
-- Found ZLIB: /usr/lib/x86_64-linux-gnu/libz.so (found version "1.2.13") 
-- Found PkgConfig: /usr/bin/pkg-config (found version "1.8.1") 
-- Checking for module 'libcurl'
--   Found libcurl, version 7.88.1
-- Configuring done`;

describe('installedComponents: D2 with versions from the artefacts D2 is read from', () => {
  it('python: the after-install versions of the pip list diff, under PEP 503 names', () => {
    const texts = { installedBefore: BEFORE, installedAfter: AFTER };
    const installed = extractLayer(PYTHON.installed, texts, {});
    expect(installed).toEqual(['python-dateutil', 'six']);
    const components = installedComponents('python', texts, installed)!;
    expect(installedVersionMap(components)).toEqual({ 'python-dateutil': '2.9.0.post0', six: '1.16.0' });
    expect(components.every((c) => c.purlType === 'pypi')).toBe(true);
  });

  it('javascript: every installed (name, version) of the tree; two versions of one name both kept', () => {
    const installed = extractLayer(JAVASCRIPT.installed, { npmLs: NPM_LS }, {});
    const components = installedComponents('javascript', { npmLs: NPM_LS }, installed)!;
    expect(installedVersionMap(components)).toEqual({ '@babel/runtime': '7.23.2', debug: '2.6.9, 4.3.4', ms: '2.0.0, 2.1.2', send: '0.18.0' });
    expect(components.find((c) => c.name === '@babel/runtime')).toEqual({ name: '@babel/runtime', version: '7.23.2', namespace: 'babel', purlType: 'npm' });
  });

  it('java: groupId and version of each resolved artifact of D2 (the run classpath: test scope left out), classifiers included', () => {
    const installed = extractLayer(JAVA.installed, { dependencyList: MVN }, {});
    const components = installedComponents('java', { dependencyList: MVN }, installed)!;
    expect(installedVersionMap(components)).toEqual({ 'commons-csv': '1.10.0', 'jackson-databind': '2.15.2', 'javafx-base': '17.0.2' });
    expect(components.find((c) => c.name === 'jackson-databind')?.namespace).toBe('com.fasterxml.jackson.core');
  });

  it('cpp: the versions CMake reports finding; FetchContent sources and unversioned names null', () => {
    const components = installedComponents('cpp', { configureLog: CONFIGURE }, ['curl', 'openssl', 'tinyjson', 'zlib'])!;
    expect(installedVersionMap(components)).toEqual({ curl: '7.88.1', openssl: '3.0.19', tinyjson: null, zlib: '1.2.13' });
  });

  it('is null where the artefact is absent (a record from before, a failed install)', () => {
    expect(installedComponents('python', {}, ['six'])).toBeNull();
    expect(installedComponents('javascript', { npmLs: null }, [])).toBeNull();
  });

  it('names the artefact of a broken npm ls', () => {
    expect(() => installedComponents('javascript', { npmLs: '{"dependencies": ' }, [])).toThrow(/npmLs: not the JSON of `npm ls --all --json`/);
  });
});
