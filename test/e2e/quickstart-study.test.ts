import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadCatalog } from '../../src/catalog/catalog';
import type { InstanceRecord } from '../../src/domain/instance';
import { parseStudyFile } from '../../src/domain/studyFile';
import { QUEUES } from '../../src/workers/queues';
import type { studyWorkflow } from '../../src/workflows/study';
import { REPO_ROOT, useProtocolHarness } from '../helpers/harness';

// The quickstart study end to end: real Temporal, real Postgres, real Docker, real pip and strace.
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
  expect(summary.progress.done).toBe(5);
  const rows = await database.db.selectFrom('instances').selectAll().execute();
  records = new Map(rows.map((r) => [(r.record as unknown as InstanceRecord).task, r.record as unknown as InstanceRecord]));
  if (process.env.ENVGAP_RECORD_HISTORIES === '1') {
    for (const id of [study.name, 'quickstart/replay/python/p_30/1']) {
      const history = await server.client.workflow.getHandle(id).fetchHistory();
      const name = id.replace(/\//g, '_');
      fs.writeFileSync(path.join(REPO_ROOT, 'test/fixtures/histories', `${name}.json`), historyToJSON(history));
    }
  }
}, 600000);


test('every instance is recorded once', () => {
  expect([...records.keys()].sort()).toEqual(['p_04', 'p_13', 'p_30', 'p_43', 'p_49']);
  for (const r of records.values()) expect(r.status).toBe('success');
});

test('p_04: declared, installed and traced agree', () => {
  const r = records.get('p_04')!;
  expect(r).toMatchObject({ first_attempt_success: true, repair_depth: 0, declared: ['pyyaml'], installed: ['pyyaml'], traced: ['pyyaml'] });
});

test('p_30: a missing dependency at iteration 0 is repaired at iteration 1; D1 comes from M0', () => {
  const r = records.get('p_30')!;
  expect(r).toMatchObject({ first_attempt_success: false, repair_depth: 1, first_error_class: 'MissingDep', iterations: 2 });
  expect(r.declared).toEqual(['pygments']);
  expect(r.installed).toEqual(['markdown', 'pygments']);
  expect(r.traced).toEqual(['markdown', 'pygments']);
});

test('p_13: colorama is declared and installed but never opened (phantom)', () => {
  const r = records.get('p_13')!;
  expect(r.declared).toEqual(['click', 'colorama']);
  expect(r.installed).toEqual(['click', 'colorama']);
  expect(r.traced).toEqual(['click']);
});

test('p_49: python-dateutil is used but only installed transitively (hidden)', () => {
  const r = records.get('p_49')!;
  expect(r.declared).toEqual(['croniter']);
  expect(r.installed).toEqual(expect.arrayContaining(['croniter', 'python-dateutil']));
  expect(r.traced).toEqual(expect.arrayContaining(['croniter', 'python-dateutil']));
  expect(r.traced).not.toContain('pip');
  expect(r.traced).not.toContain('setuptools');
});

test('p_43: a standard-library program has empty layers: the interpreter is not a dependency', () => {
  const r = records.get('p_43')!;
  expect(r).toMatchObject({ declared: [], installed: [], traced: [] });
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
