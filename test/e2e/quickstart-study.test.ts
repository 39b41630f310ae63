import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadCatalog } from '../../src/catalog/catalog';
import type { InstanceRecord } from '../../src/domain/instance';
import { parseStudyFile } from '../../src/cli/studyFile';
import { QUEUES } from '../../src/workers/queues';
import type { studyWorkflow } from '../../src/workflows/study';
import { REPO_ROOT, useProtocolHarness } from '../helpers/harness';

// The quickstart study end to end in all four ecosystems: real Temporal, real Postgres, real Docker,
// real pip, Maven, npm, CMake, apt and strace.
const h = useProtocolHarness();
let records: Map<string, InstanceRecord>;

beforeAll(async () => {
  const { server, database } = h;
  const file = path.join(REPO_ROOT, 'studies/quickstart.yaml');
  const study = parseStudyFile(fs.readFileSync(file, 'utf8'), file, loadCatalog());
  const summary = await server.client.workflow.execute<typeof studyWorkflow>('studyWorkflow', {
    workflowId: study.name,
    taskQueue: QUEUES.cpu,
    args: [study],
  });
  expect(summary.progress.done).toBe(15);
  const rows = await database.db.selectFrom('instances').selectAll().execute();
  records = new Map(rows.map((r) => {
    const rec = r.record as unknown as InstanceRecord;
    return [`${rec.language}/${rec.task}`, rec];
  }));
  // ENVGAP_RECORD_HISTORIES=SET writes them to test/fixtures/histories/SET/ (a new set when the workflow code changes on purpose).
  const set = process.env.ENVGAP_RECORD_HISTORIES;
  if (set) {
    for (const id of [study.name, 'quickstart/replay/python/p_30/1', 'quickstart/replay/cpp/p_11/1']) {
      const history = await server.client.workflow.getHandle(id).fetchHistory();
      const name = id.replace(/\//g, '_');
      fs.mkdirSync(path.join(REPO_ROOT, 'test/fixtures/histories', set), { recursive: true });
      fs.writeFileSync(path.join(REPO_ROOT, 'test/fixtures/histories', set, `${name}.json`), historyToJSON(history));
    }
  }
}, 600000);


test('every instance is recorded once', () => {
  expect([...records.keys()].sort()).toEqual([
    'cpp/p_02', 'cpp/p_11', 'cpp/p_24', 'cpp/p_37', 'java/p_01', 'java/p_02', 'java/p_13',
    'javascript/p_04', 'javascript/p_30', 'javascript/p_49',
    'python/p_04', 'python/p_13', 'python/p_30', 'python/p_43', 'python/p_49',
  ]);
  for (const r of records.values()) expect(r.status).toBe('success');
});

test('python p_04: declared, installed and traced agree', () => {
  const r = records.get('python/p_04')!;
  expect(r).toMatchObject({ first_attempt_success: true, repair_depth: 0, declared: ['pyyaml'], installed: ['pyyaml'], traced: ['pyyaml'] });
});

test('python p_30: a missing dependency at iteration 0 is repaired at iteration 1; D1 comes from M0', () => {
  const r = records.get('python/p_30')!;
  expect(r).toMatchObject({ first_attempt_success: false, repair_depth: 1, first_error_class: 'MissingDep', iterations: 2 });
  expect(r.declared).toEqual(['pygments']);
  expect(r.installed).toEqual(['markdown', 'pygments']);
  expect(r.traced).toEqual(['markdown', 'pygments']);
});

test('python p_13: colorama is declared and installed but never opened (phantom)', () => {
  const r = records.get('python/p_13')!;
  expect(r.declared).toEqual(['click', 'colorama']);
  expect(r.installed).toEqual(['click', 'colorama']);
  expect(r.traced).toEqual(['click']);
});

test('python p_49: python-dateutil is used but only installed transitively (hidden)', () => {
  const r = records.get('python/p_49')!;
  expect(r.declared).toEqual(['croniter']);
  expect(r.installed).toEqual(expect.arrayContaining(['croniter', 'python-dateutil']));
  expect(r.traced).toEqual(expect.arrayContaining(['croniter', 'python-dateutil']));
  expect(r.traced).not.toContain('pip');
  expect(r.traced).not.toContain('setuptools');
});

test('python p_43: a standard-library program has empty layers: the interpreter is not a dependency', () => {
  const r = records.get('python/p_43')!;
  expect(r).toMatchObject({ declared: [], installed: [], traced: [] });
});

test('java p_02: gson missing from pom.xml is a MissingDep at iteration 0, repaired at iteration 1', () => {
  expect(records.get('java/p_02')).toMatchObject({ first_attempt_success: false, repair_depth: 1, first_error_class: 'MissingDep', declared: [], installed: ['gson'], traced: ['gson'] });
});

test('java p_13: commons-lang3 declared and installed, no class loaded from it (phantom)', () => {
  expect(records.get('java/p_13')).toMatchObject({ declared: ['commons-lang3', 'gson'], installed: ['commons-lang3', 'gson'], traced: ['gson'] });
});

test('java p_01: jackson-core used but only declared through jackson-databind (hidden); the build read the jars', () => {
  const r = records.get('java/p_01')!;
  expect(r.declared).toEqual(['jackson-databind']);
  expect(r.installed).toEqual(['jackson-annotations', 'jackson-core', 'jackson-databind']);
  expect(r.traced).toEqual(expect.arrayContaining(['jackson-core', 'jackson-databind']));
  expect(r.traced_build).toEqual(expect.arrayContaining(['jackson-core', 'jackson-databind']));
});

test('javascript p_04: a missing module at iteration 0 is repaired at iteration 1', () => {
  expect(records.get('javascript/p_04')).toMatchObject({ repair_depth: 1, first_error_class: 'MissingDep', declared: [], installed: ['yaml'], traced: ['yaml'] });
});

test('javascript p_49: moment is a phantom, luxon (cron-parser\'s) is hidden', () => {
  const r = records.get('javascript/p_49')!;
  expect(r.declared).toEqual(['cron-parser', 'moment']);
  expect(r.installed).toEqual(expect.arrayContaining(['cron-parser', 'luxon', 'moment']));
  expect(r.traced).toEqual(['cron-parser', 'luxon']);
});

test('javascript p_30: markdown-it\'s own dependencies are used, undeclared (hidden)', () => {
  const r = records.get('javascript/p_30')!;
  expect(r.declared).toEqual(['markdown-it']);
  expect(r.traced).toEqual(expect.arrayContaining(['markdown-it', 'linkify-it', 'mdurl']));
  expect(r.installed).toEqual(expect.arrayContaining(r.traced!));
});

test('cpp p_11: find_package(OpenSSL) fails as SystemLib; apt.txt repairs it; libcrypto is traced', () => {
  const r = records.get('cpp/p_11')!;
  expect(r).toMatchObject({ first_attempt_success: false, repair_depth: 1, first_error_class: 'SystemLib', declared: ['openssl'] });
  expect(r.installed).toEqual(expect.arrayContaining(['libssl-dev', 'openssl']));
  expect(r.traced).toEqual(['crypto']);
  expect(r.traced_debian_packages).toEqual(['libssl3']);
});

test('cpp p_37: a missing zlib.h is SystemLib at iteration 0; libz is traced after the repair', () => {
  const r = records.get('cpp/p_37')!;
  expect(r).toMatchObject({ repair_depth: 1, first_error_class: 'SystemLib', declared: [], traced: ['z'] });
  expect(r.traced_build).toEqual(expect.arrayContaining(['z']));
});

test('cpp p_02: the header-only nlohmann_json is absent from the run and present in the build', () => {
  const r = records.get('cpp/p_02')!;
  expect(r).toMatchObject({ first_attempt_success: true, declared: ['nlohmann-json3-dev', 'nlohmann_json'], traced: [] });
  expect(r.traced_build).toContain('nlohmann_json');
});

test('cpp p_24: SQLite3 declared and found but never loaded (phantom); libcurl brings hidden libraries', () => {
  const r = records.get('cpp/p_24')!;
  expect(r.declared).toEqual(expect.arrayContaining(['curl', 'sqlite3']));
  expect(r.traced).toContain('curl');
  expect(r.traced).not.toContain('sqlite3');
  expect(r.traced!.filter((n) => !r.declared!.includes(n)).length).toBeGreaterThan(0);
  expect(r.traced_debian_packages).toEqual(expect.arrayContaining(['libcurl4', 'libssl3']));
  expect(r.traced_debian_packages).not.toContain('libsqlite3-0');
});

test('iteration files, logs and traces are stored content-addressed, not in workflow history', async () => {
  const its = await h.database.db.selectFrom('iterations').selectAll().where('instance_id', '=', 'quickstart/replay/python/p_30/1').orderBy('iteration').execute();
  expect(its).toHaveLength(2);
  for (const it of its) expect(it.files_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
  const exec0 = it0(its[0].execution);
  expect(exec0.success).toBe(false);
  const blob = await h.database.db.selectFrom('blobs').select(['hash']).where('hash', '=', exec0.errorHash).executeTakeFirst();
  expect(blob?.hash).toBe(exec0.errorHash);
  const history = await h.server.client.workflow.getHandle('quickstart/replay/python/p_30/1').fetchHistory();
  const text = JSON.stringify(history);
  expect(text).not.toContain('ModuleNotFoundError');
  expect(text).not.toContain('import markdown');
});

function it0(v: unknown): { success: boolean; errorHash: string } {
  return (typeof v === 'string' ? JSON.parse(v) : v) as { success: boolean; errorHash: string };
}
