import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import type { InstanceRecord } from '../../../src/domain/instance';
import { traceEvidence } from '../../../src/ecosystems/evidence';
import { installedComponents } from '../../../src/ecosystems/installedComponents';
import { PYTHON } from '../../../src/ecosystems/python/ecosystem';
import { extractLayer } from '../../../src/ecosystems/ecosystem';
import { buildCycloneDx, MAX_OCCURRENCES, purlOf } from '../../../src/sbom/cyclonedx';

const SITE = '/opt/venv/lib/python3.11/site-packages';
// The Python runner's artefacts for `import six, dateutil.parser` after `pip install six python-dateutil`.
const TEXTS = {
  installedBefore: '[{"name": "pip", "version": "23.0.1"}, {"name": "setuptools", "version": "66.1.1"}]',
  installedAfter: '[{"name": "pip", "version": "23.0.1"}, {"name": "python-dateutil", "version": "2.9.0.post0"}, {"name": "setuptools", "version": "66.1.1"}, {"name": "six", "version": "1.16.0"}]',
  distributionIndex: JSON.stringify([
    { name: 'six', version: '1.16.0', location: SITE, files: ['six-1.16.0.dist-info/RECORD', 'six.py'] },
    { name: 'python-dateutil', version: '2.9.0.post0', location: SITE, files: ['dateutil/__init__.py', 'dateutil/parser/__init__.py', 'dateutil/parser/_parser.py', 'python_dateutil-2.9.0.post0.dist-info/RECORD'] },
  ]),
  baselineTrace: `101   openat(AT_FDCWD, "/usr/lib/python3.11/encodings/__init__.py", O_RDONLY|O_CLOEXEC) = 3\n`,
  runTrace: [
    `201   openat(AT_FDCWD, "/usr/lib/python3.11/encodings/__init__.py", O_RDONLY|O_CLOEXEC) = 3`,
    `201   openat(AT_FDCWD, "${SITE}/six.py", O_RDONLY|O_CLOEXEC) = 3`,
    `201   openat(AT_FDCWD, "${SITE}/__pycache__/six.cpython-311.pyc", O_RDONLY|O_CLOEXEC) = 3`,
    `201   openat(AT_FDCWD, "${SITE}/dateutil/__init__.py", O_RDONLY|O_CLOEXEC) = 3`,
    `201   openat(AT_FDCWD, "${SITE}/dateutil/parser/_parser.py", O_RDONLY|O_CLOEXEC) = 3`,
    `201   openat(AT_FDCWD, "${SITE}/python_dateutil-2.9.0.post0.dist-info/RECORD", O_RDONLY|O_CLOEXEC) = 3`,
  ].join('\n'),
};

function record(over: Partial<InstanceRecord> = {}): InstanceRecord {
  return {
    schema: 'envgap.instance/v1', study: 's1', agent: 'replay', language: 'python', task: 'p_01', trial: 1, domain: 'Utilities',
    status: 'success', first_attempt_success: true, repair_depth: 0, first_error_class: null,
    declared: ['python-dateutil', 'requests', 'libxml2-dev'], installed: ['python-dateutil', 'six'], traced: ['six'], traced_build: null, stdlib_sufficient: null,
    provenance: {
      image: { tag: 'envgap/python:0123abcd', id: 'sha256:aa', recipe_hash: '0123abcd' },
      tool_versions: { python: '3.11.2', pip: '23.0.1', strace: '6.1' },
      envgap: { version: '0.1.0', commit: null },
      catalog_hash: 'c0ffee',
      package_indexes: { pip_index_url: 'https://pypi.example.org/simple' },
      recorded_at: '2026-12-01T22:00:00.000Z',
      worker: 'envgap-worker-1@host',
    },
    installed_versions: { 'python-dateutil': '2.9.0.post0', six: '1.16.0' },
    ...over,
  };
}

async function validate(bom: unknown): Promise<unknown> {
  return new Validation.JsonStrictValidator(Spec.Version.v1dot6).validate(JSON.stringify(bom));
}

type Component = { name: string; purl: string; version?: string; evidence?: { occurrences: { location: string; additionalContext: string }[] }; properties: { name: string; value: string }[] };
const prop = (c: Component, name: string) => c.properties.find((p) => p.name === name)?.value;

describe('buildCycloneDx', () => {
  const installed = extractLayer(PYTHON.installed, TEXTS, {});
  const evidence = traceEvidence('python', TEXTS, ['six'], []);

  it('maps each traced package to the files the run opened for it, as the trace mapping counts them', () => {
    expect(Object.fromEntries(traceEvidence('python', TEXTS, ['six', 'python-dateutil'], []).run)).toEqual({
      six: [`${SITE}/six.py`, `${SITE}/__pycache__/six.cpython-311.pyc`],
      'python-dateutil': [`${SITE}/dateutil/__init__.py`, `${SITE}/dateutil/parser/_parser.py`],
    });
  });

  it('gives a valid CycloneDX 1.6 BOM: D2 with versions and purls, occurrences, untraced and uninstalled names marked', async () => {
    const bom = buildCycloneDx({ record: record(), components: installedComponents('python', TEXTS, installed), evidence, aptPackages: ['libxml2-dev'] });
    expect(await validate(bom)).toBeNull();
    const components = (bom as { components: Component[] }).components;
    const byName = new Map(components.map((c) => [c.name, c]));
    expect(byName.get('six')).toMatchObject({ version: '1.16.0', purl: 'pkg:pypi/six@1.16.0', evidence: { occurrences: [{ location: `${SITE}/six.py` }, { location: `${SITE}/__pycache__/six.cpython-311.pyc` }] } });
    expect(prop(byName.get('six')!, 'envgap:traced')).toBe('true');
    expect(prop(byName.get('six')!, 'envgap:evidence')).toBe('run');
    expect(prop(byName.get('python-dateutil')!, 'envgap:traced')).toBe('false');
    expect(prop(byName.get('python-dateutil')!, 'envgap:declared')).toBe('true');
    expect(byName.get('python-dateutil')!.evidence).toBeUndefined();
    expect(byName.get('requests')).toMatchObject({ purl: 'pkg:pypi/requests' });
    expect(prop(byName.get('requests')!, 'envgap:installed')).toBe('false');
    expect(byName.get('libxml2-dev')).toMatchObject({ purl: 'pkg:deb/debian/libxml2-dev' });
    expect(prop(byName.get('libxml2-dev')!, 'envgap:installed')).toBe('apt');
    const meta = (bom as { metadata: { properties: { name: string; value: string }[] } }).metadata.properties;
    expect(meta).toEqual(expect.arrayContaining([{ name: 'envgap:tool:python', value: '3.11.2' }, { name: 'envgap:image_id', value: 'sha256:aa' }]));
  });

  it('is the same BOM for the same record, serial number included', () => {
    const input = { record: record(), components: installedComponents('python', TEXTS, installed), evidence, aptPackages: [] };
    expect(buildCycloneDx(input)).toEqual(buildCycloneDx(input));
  });

  it('falls back on the record\'s installed_versions where the artefacts are gone, and on bare names in an old record', async () => {
    const fromRecord = buildCycloneDx({ record: record(), components: null, evidence: { run: new Map(), build: new Map() }, aptPackages: [] });
    expect(await validate(fromRecord)).toBeNull();
    expect((fromRecord as { components: Component[] }).components.find((c) => c.name === 'six')?.purl).toBe('pkg:pypi/six@1.16.0');
    const old = buildCycloneDx({ record: record({ provenance: undefined, installed_versions: undefined }), components: null, evidence: { run: new Map(), build: new Map() }, aptPackages: [] });
    expect(await validate(old)).toBeNull();
    expect((old as { components: Component[] }).components.find((c) => c.name === 'six')).toMatchObject({ purl: 'pkg:pypi/six' });
  });

  it('keeps build evidence apart, and caps occurrences with the total as a property', async () => {
    const many = Array.from({ length: MAX_OCCURRENCES + 5 }, (_, i) => `/root/.m2/repository/com/google/code/gson/gson/2.10.1/f${i}.jar`);
    const javaRecord = record({ language: 'java', task: 'p_13', declared: ['gson'], installed: ['gson'], traced: ['gson'], traced_build: ['gson'], installed_versions: undefined });
    const bom = buildCycloneDx({
      record: javaRecord,
      components: [{ name: 'gson', version: '2.10.1', namespace: 'com.google.code.gson', purlType: 'maven' }],
      evidence: { run: new Map([['gson', ['/work/target/dependency/gson-2.10.1.jar']]]), build: new Map([['gson', many]]) },
      aptPackages: [],
    });
    expect(await validate(bom)).toBeNull();
    const gson = (bom as { components: Component[] }).components[0];
    expect(gson).toMatchObject({ purl: 'pkg:maven/com.google.code.gson/gson@2.10.1' });
    expect(gson.evidence!.occurrences).toHaveLength(MAX_OCCURRENCES);
    expect(gson.evidence!.occurrences[0].additionalContext).toMatch(/run/);
    expect(gson.evidence!.occurrences[1].additionalContext).toMatch(/build/);
    expect(prop(gson, 'envgap:evidence')).toBe('run+build');
    expect(prop(gson, 'envgap:occurrences_total')).toBe(String(MAX_OCCURRENCES + 6));
  });

  it('says of a starter traced through what it brings that it has no file of its own to show', async () => {
    const javaRecord = record({ language: 'java', declared: ['spring-boot-starter-web'], installed: ['spring-boot-starter-web', 'spring-webmvc'], traced: ['spring-boot-starter-web', 'spring-webmvc'], traced_build: [], traced_aggregated: ['spring-boot-starter-web'], installed_versions: undefined });
    const bom = buildCycloneDx({
      record: javaRecord,
      components: [
        { name: 'spring-boot-starter-web', version: '3.5.7', namespace: 'org.springframework.boot', purlType: 'maven' },
        { name: 'spring-webmvc', version: '6.2.12', namespace: 'org.springframework', purlType: 'maven' },
      ],
      evidence: { run: new Map([['spring-webmvc', ['/work/target/dependency/org/springframework/spring-webmvc/6.2.12/spring-webmvc-6.2.12.jar']]]), build: new Map() },
      aptPackages: [],
    });
    expect(await validate(bom)).toBeNull();
    const [starter, webmvc] = (bom as { components: Component[] }).components;
    expect(prop(starter, 'envgap:traced')).toBe('true');
    expect(prop(starter, 'envgap:traced_through')).toMatch(/no class of its own/);
    expect(starter.evidence).toBeUndefined();
    expect(prop(webmvc, 'envgap:traced_through')).toBeUndefined();
  });
});

test('purls of each type', () => {
  expect(purlOf({ name: '@babel/runtime', version: '7.23.2', namespace: 'babel', purlType: 'npm' })).toBe('pkg:npm/%40babel/runtime@7.23.2');
  expect(purlOf({ name: 'openssl', version: '3.0.19', purlType: 'generic' })).toBe('pkg:generic/openssl@3.0.19');
  expect(purlOf({ name: 'libssl3', version: null, purlType: 'deb' })).toBe('pkg:deb/debian/libssl3');
});
