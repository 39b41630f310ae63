import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { MAVEN_AS_OF_FILE, MAVEN_AS_OF_SOURCE } from '../../src/activities/runners/mavenAsOf';
import { connectDocker } from '../../src/infra/docker';
import { ensureRuntimeImage } from '../../src/infra/images';
import { loadSettings } from '../../src/infra/settings';

// The date-filtered Maven view's metadata rewrite (src/activities/runners/mavenAsOf.ts) is pure, but it is
// Java (the Java image has no Node): it is run here by the Java image's JDK (no JDK on the host is
// assumed), with no network, on metadata from standard input.
const dir = mkdtempSync(path.join(tmpdir(), 'maven-as-of-'));
let image: string;
beforeAll(async () => {
  image = await ensureRuntimeImage(connectDocker(), loadSettings(), 'java', () => undefined);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(path.join(dir, MAVEN_AS_OF_FILE), MAVEN_AS_OF_SOURCE);

function filter(metadata: string, dates: Record<string, string>, cutoff: string): { status: number | null; out: string } {
  const file = path.join(dir, 'dates.txt');
  writeFileSync(file, Object.entries(dates).map(([v, d]) => `${v} ${d}\n`).join(''));
  const r = spawnSync('docker', ['run', '--rm', '-i', '--network', 'none', '-v', `${dir}:/as-of:ro`, image, 'java', `/as-of/${MAVEN_AS_OF_FILE}`, 'filter', cutoff, '/as-of/dates.txt'], { input: metadata, encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 3) throw new Error(`java ${MAVEN_AS_OF_FILE} filter: exit ${r.status}: ${r.stderr}`);
  return { status: r.status, out: r.stdout };
}

const METADATA = `<?xml version="1.0" encoding="UTF-8"?>
<metadata>
  <groupId>com.google.code.gson</groupId>
  <artifactId>gson</artifactId>
  <versioning>
    <latest>2.10.1</latest>
    <release>2.10.1</release>
    <versions>
      <version>2.8.9</version>
      <version>2.9.0</version>
      <version>2.9.1</version>
      <version>2.10</version>
      <version>2.10.1</version>
      <version>2.11.0-SNAPSHOT</version>
    </versions>
    <lastUpdated>20230106161531</lastUpdated>
  </versioning>
</metadata>
`;
const DATES = { '2.8.9': '2021-10-26T19:06:36Z', '2.9.0': '2022-02-11T18:41:03Z', '2.9.1': '2022-07-31T21:26:20Z', '2.10': '2022-10-25T01:09:38Z', '2.10.1': '2023-01-06T16:15:31Z' };
const versions = (xml: string) => [...xml.matchAll(/<version>([^<]*)<\/version>/g)].map((m) => m[1]);

test('the versions published on or after the cutoff go; latest, release and lastUpdated follow the newest kept', () => {
  const { out } = filter(METADATA, DATES, '2022-10-01T00:00:00Z');
  // An undated version (no Last-Modified, no signature: here the snapshot) is kept.
  expect(versions(out)).toEqual(['2.8.9', '2.9.0', '2.9.1', '2.11.0-SNAPSHOT']);
  expect(out).toContain('<release>2.9.1</release>');
  expect(out).toContain('<lastUpdated>20220731212620</lastUpdated>');
  expect(out).toContain('<groupId>com.google.code.gson</groupId>');
});

test('a version published at the cutoff itself is after it; no version before it leaves nothing (exit 3, the view answers 404)', () => {
  expect(versions(filter(METADATA, DATES, '2022-10-25T01:09:38Z').out)).toEqual(['2.8.9', '2.9.0', '2.9.1', '2.11.0-SNAPSHOT']);
  const onlyDated = METADATA.replace('      <version>2.11.0-SNAPSHOT</version>\n', '');
  expect(filter(onlyDated, DATES, '2020-01-01T00:00:00Z')).toEqual({ status: 3, out: '' });
});

test('with every version before the cutoff, the versions stay; metadata without a version list comes back unchanged', () => {
  const { out } = filter(METADATA, DATES, '2024-01-01T00:00:00Z');
  expect(versions(out)).toEqual(['2.8.9', '2.9.0', '2.9.1', '2.10', '2.10.1', '2.11.0-SNAPSHOT']);
  expect(out).toContain('<release>2.10.1</release>');
  const plugins = '<metadata><plugins><plugin><name>x</name><prefix>x</prefix><artifactId>x-maven-plugin</artifactId></plugin></plugins></metadata>\n';
  expect(filter(plugins, {}, '2020-01-01T00:00:00Z').out).toBe(plugins);
});
