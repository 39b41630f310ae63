import { useExecutionHarness } from '../helpers/execution';
import { loadSettings } from '../../src/infra/settings';
import type { InstalledVersions } from '../../src/domain/provenance';

// Real containers, real pip and npm against the real registries: a study's resolve_as_of makes the
// same unpinned manifest resolve to what the registry held on that day (docs/resolution.md).
const h = useExecutionHarness();
const versionsOf = async (hash: string | undefined): Promise<InstalledVersions> => (hash ? h.blobs.getJson<InstalledVersions>(hash) : {});

test('pip: an unpinned `requests` as of 2023-06-01 resolves to the 2023 release (2.31.0, uploaded 2023-05-22; 2.32.0 came in May 2024), today to a later one', async () => {
  const files = { 'requirements.txt': 'requests\n', 'main.py': 'import requests\nprint(requests.__version__)\n' };
  const dated = await h.execute('asof/replay/python/requests/1', 'python', files, { run_timeout_s: 60 }, undefined, { resolveAsOf: '2023-06-01' });
  expect(dated.outcome).toMatchObject({ success: true, provenance: { resolve_as_of: { date: '2023-06-01', pinned_by: 'pip 26.0.1 --uploaded-prior-to' } } });
  expect(dated.log).toContain('pip install --no-input --uploaded-prior-to=2023-06-01T00:00:00Z -r requirements.txt (pip 26.0.1)');
  const then = await versionsOf(dated.outcome.installedVersions?.blob);
  expect(then.requests).toBe('2.31.0');
  // The dated pip is the harness's: the venv's own pip is not upgraded, so D2 does not list it.
  expect(then).not.toHaveProperty('pip');

  const today = await h.execute('asof/replay/python/requests/2', 'python', files, { run_timeout_s: 60 });
  expect(today.outcome.success).toBe(true);
  expect(today.outcome.provenance?.resolve_as_of).toBeUndefined();
  expect(today.log).toContain('$ pip install --no-input -r requirements.txt');
  const now = await versionsOf(today.outcome.installedVersions?.blob);
  expect(now.requests).not.toBe('2.31.0');
}, 400000);

test('npm: `semver@^7` with --before resolves to a version the registry had published by then, today to a later one', async () => {
  const files = {
    'package.json': JSON.stringify({ name: 'asof', version: '1.0.0', dependencies: { semver: '^7.0.0' } }),
    'index.js': 'console.log(require("semver/package.json").version);\n',
  };
  const date = '2024-06-01';
  const dated = await h.execute('asof/replay/javascript/semver/1', 'javascript', files, { run_timeout_s: 60 }, undefined, { resolveAsOf: date });
  expect(dated.outcome).toMatchObject({ success: true, provenance: { resolve_as_of: { date, pinned_by: 'npm --before' } } });
  expect(dated.log).toContain(`npm install --before=${date}T00:00:00Z`);
  const today = await h.execute('asof/replay/javascript/semver/2', 'javascript', files, { run_timeout_s: 60 });
  expect(today.outcome.success).toBe(true);

  const [then, now] = [(await versionsOf(dated.outcome.installedVersions?.blob)).semver, (await versionsOf(today.outcome.installedVersions?.blob)).semver];
  expect(then).toMatch(/^7\./);
  expect(now).not.toBe(then);
  // Judged by the registry's own publication times, as npm judges them (a mirror may date its copies differently from npmjs.org).
  const registry = (loadSettings().npmRegistry ?? 'https://registry.npmjs.org').replace(/\/$/, '');
  const times = ((await (await fetch(`${registry}/semver`)).json()) as { time: Record<string, string> }).time;
  expect(Date.parse(times[then!]!)).toBeLessThanOrEqual(Date.parse(`${date}T00:00:00Z`));
  expect(Date.parse(times[now!]!)).toBeGreaterThan(Date.parse(`${date}T00:00:00Z`));
}, 400000);

// The range stops below 2.11: a version whose time the repository gives neither by Last-Modified nor by a
// signature is kept, and the repository this machine reaches serves no signature for the newest gson.
test('Maven: a version range `[2.8,2.11)` of gson as of 2022-10-01 resolves through the date-filtered view to 2.9.1 (2.10 was signed 2022-10-25), today to 2.10.1', async () => {
  const files = {
    'pom.xml': `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion><groupId>t</groupId><artifactId>asof</artifactId><version>1</version>
<properties><maven.compiler.source>17</maven.compiler.source><maven.compiler.target>17</maven.compiler.target></properties>
<dependencies><dependency><groupId>com.google.code.gson</groupId><artifactId>gson</artifactId><version>[2.8,2.11)</version></dependency></dependencies></project>`,
    'src/main/java/t/Main.java': 'package t;\npublic class Main { public static void main(String[] a) { System.out.println(new com.google.gson.Gson().toJson(a)); } }\n',
  };
  const gson = (v: InstalledVersions): string | null | undefined => Object.entries(v).find(([name]) => /(^|:)gson$/.test(name))?.[1];
  const dated = await h.execute('asof/replay/java/gson/1', 'java', files, { run_timeout_s: 60 }, undefined, { resolveAsOf: '2022-10-01' });
  expect(dated.outcome).toMatchObject({ success: true, provenance: { resolve_as_of: { date: '2022-10-01', pinned_by: 'maven date-filtered mirror' } } });
  expect(dated.log).toContain('view of the repository as of 2022-10-01T00:00:00Z');
  expect(gson(await versionsOf(dated.outcome.installedVersions?.blob))).toBe('2.9.1');

  const today = await h.execute('asof/replay/java/gson/2', 'java', files, { run_timeout_s: 60 });
  expect(today.outcome.success).toBe(true);
  expect(today.outcome.provenance?.resolve_as_of).toBeUndefined();
  expect(gson(await versionsOf(today.outcome.installedVersions?.blob))).toBe('2.10.1');
}, 600000);
