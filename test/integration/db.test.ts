import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sql } from 'kysely';
import type { ExecutionOutcome } from '../../src/activities/types';
import { BlobStore, contentHash } from '../../src/db/blobs';
import { migrateDown, migrateToLatest, openDatabase, type Db } from '../../src/db/connect';
import { saveInstance, saveInstanceWithExecution, studyRecords } from '../../src/db/instances';
import { instanceIterations, recordAgentCall, recordExecution, studyAgentCalls } from '../../src/db/iterations';
import type { AgentCallMeta } from '../../src/db/schema';
import { findStudy, saveStudy } from '../../src/db/studies';
import type { InstanceRecord } from '../../src/domain/instance';
import { DEFAULT_LIMITS, expandStudy, type StudyInput } from '../../src/domain/study';
import { freshDatabase } from '../helpers/postgres';

test('migrations go up and down on Postgres and are idempotent', async () => {
  const { db, drop } = await freshDatabase();
  try {
    expect(await migrateToLatest(db)).toEqual([]); // already at latest
    await migrateDown(db);
    const after = await sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_name in ('blobs','instances','iterations','studies','readiness_instances','readme_instances','reresolutions')`.execute(db);
    expect(after.rows[0].n).toBe(0);
    expect(await migrateToLatest(db)).toEqual(['2026-11-30-001-initial', '2026-12-01-001-readiness', '2026-12-01-002-readme', '2026-12-03-001-reresolutions']);
  } finally {
    await drop();
  }
});

test('a failing migration throws loudly with its name', async () => {
  const { db, drop } = await freshDatabase();
  try {
    await sql`drop table iterations`.execute(db);
    await expect(migrateDown(db)).rejects.toThrow(/migration down failed/);
  } finally {
    await drop();
  }
});

test('blobs are content-addressed: the same content twice is stored once', async () => {
  const { db, drop } = await freshDatabase();
  try {
    const blobs = new BlobStore(db);
    const text = 'Traceback (most recent call last):\n' + 'x'.repeat(100000);
    const h1 = await blobs.put(text);
    const h2 = await blobs.put(text);
    expect(h1).toBe(h2);
    expect(h1).toBe(contentHash(text));
    expect(await blobs.getText(h1)).toBe(text);
    const rows = await db.selectFrom('blobs').select(['size']).execute();
    expect(rows).toEqual([{ size: Buffer.byteLength(text) }]);
    await expect(blobs.get('sha256:nope')).rejects.toThrow(/not in the database/);
  } finally {
    await drop();
  }
});

test('what a store wrote or read is read back from memory, bounded, as copies; every put still reaches the database', async () => {
  const { db, drop } = await freshDatabase();
  try {
    const blobs = new BlobStore(db, { maxBytes: 250, maxEntryBytes: 120 });
    const a = await blobs.put('a'.repeat(100));
    const b = await blobs.put('b'.repeat(100));
    const big = await blobs.put('c'.repeat(200));
    expect(blobs.cacheBytes).toBe(200);
    expect((await db.selectFrom('blobs').select('hash').execute()).map((r) => r.hash).sort()).toEqual([a, b, big].sort());
    // Gone from the database, still answered from memory (content-addressed: it cannot be stale).
    await db.deleteFrom('blobs').where('hash', 'in', [a, b]).execute();
    const read = await blobs.get(a);
    expect(read.toString()).toBe('a'.repeat(100));
    read.fill(0);
    expect(await blobs.getText(a)).toBe('a'.repeat(100));
    // Over maxBytes the least recently used goes (b: a was just read); over maxEntryBytes none is kept.
    await blobs.put('d'.repeat(100));
    expect(blobs.cacheBytes).toBe(200);
    await expect(blobs.get(b)).rejects.toThrow(/not in the database/);
    expect(await blobs.getText(big)).toBe('c'.repeat(200));
    expect(blobs.cacheBytes).toBe(200);
    // A write's hash is known at once and readable while it is written; one that fails is forgotten.
    const pending = blobs.write('e'.repeat(50));
    expect(await blobs.getText(pending.hash)).toBe('e'.repeat(50));
    expect(await pending.written).toBe(pending.hash);
    await db.schema.alterTable('blobs').renameTo('blobs_away').execute();
    const failing = blobs.write('f'.repeat(50));
    await expect(failing.written).rejects.toThrow();
    await db.schema.alterTable('blobs_away').renameTo('blobs').execute();
    await expect(blobs.get(failing.hash)).rejects.toThrow(/not in the database/);
  } finally {
    await drop();
  }
});

test('without DATABASE_URL an embedded PGlite database under the state folder is used and migrated', async () => {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-pglite-'));
  const db = await openDatabase({ stateDir });
  try {
    await migrateToLatest(db);
    const blobs = new BlobStore(db);
    const h = await blobs.putJson({ 'main.py': 'print(1)\n' });
    expect(await blobs.getJson(h)).toEqual({ 'main.py': 'print(1)\n' });
    expect(fs.existsSync(path.join(stateDir, 'pglite'))).toBe(true);
  } finally {
    await db.destroy();
  }
});

const study: StudyInput = {
  name: 'repo',
  agents: [{ kind: 'replay', name: 'replay', path: '/corpus' }],
  languages: ['python'],
  tasks: [{ id: 'p_01', title: 'One', domain: 'web' }, { id: 'p_02', title: 'Two', domain: 'cli' }],
  trials: 1,
  budget: 2,
  concurrency: 1,
  limits: DEFAULT_LIMITS,
};

function recordOf(task: string, status: InstanceRecord['status']): InstanceRecord {
  return {
    schema: 'envgap.instance/v1', study: 'repo', agent: 'replay', language: 'python', task, trial: 1, domain: 'web', status,
    first_attempt_success: status === 'success', repair_depth: status === 'success' ? 0 : null, first_error_class: null,
    declared: ['flask'], installed: ['flask', 'werkzeug'], traced: ['flask'], traced_build: null, stdlib_sufficient: false,
  };
}

const meta = (tokens: number): AgentCallMeta => ({ prompt_hash: 'sha256:p', transcript_hash: null, tokens_in: tokens, tokens_out: 1, cost_usd: null, duration_ms: 5 });
const outcome: ExecutionOutcome = {
  success: false, failedStep: 'run', errorClass: 'MissingDep', errorHash: 'sha256:e', exitCode: 1, artefacts: { log: 'sha256:l' }, durations: { total: 9 },
};

/** The table modules, the same on both drivers: jsonb columns come back as the values written. */
async function exerciseRepositories(db: Db) {
  expect(await findStudy(db, 'repo')).toBeNull();
  await saveStudy(db, { ...study, budget: 0 });
  await saveStudy(db, study);
  expect(await findStudy(db, 'repo')).toEqual(study);

  const [one, two] = expandStudy(study);
  await saveInstance(db, two, recordOf('p_02', 'failed'));
  await saveInstance(db, one, recordOf('p_01', 'failed'));
  await saveInstance(db, one, recordOf('p_01', 'success')); // a retry replaces the record
  expect(await studyRecords(db, 'repo')).toEqual([recordOf('p_01', 'success'), recordOf('p_02', 'failed')]);
  expect(await studyRecords(db, 'other')).toEqual([]);
  const input = await db.selectFrom('instances').select(['input', 'status']).where('id', '=', one.instanceId).execute();
  expect(input).toHaveLength(1);
  expect(input[0].status).toBe('success');

  await recordExecution(db, one.instanceId, 0, outcome); // no agent call yet: nothing to update
  expect(await instanceIterations(db, one.instanceId)).toEqual([]);
  await recordAgentCall(db, { instanceId: one.instanceId, iteration: 1, filesHash: null, meta: meta(3) });
  await recordAgentCall(db, { instanceId: one.instanceId, iteration: 0, filesHash: 'sha256:f0', meta: meta(1) });
  await recordExecution(db, one.instanceId, 0, outcome);
  expect(await instanceIterations(db, one.instanceId)).toEqual([
    { instanceId: one.instanceId, iteration: 0, filesHash: 'sha256:f0', agent: meta(1), execution: outcome },
    { instanceId: one.instanceId, iteration: 1, filesHash: null, agent: meta(3), execution: null },
  ]);
  // A retried agent call replaces its files and meta and clears the execution of the files it replaced.
  await recordAgentCall(db, { instanceId: one.instanceId, iteration: 0, filesHash: 'sha256:f0b', meta: meta(2) });
  expect((await instanceIterations(db, one.instanceId))[0]).toEqual({ instanceId: one.instanceId, iteration: 0, filesHash: 'sha256:f0b', agent: meta(2), execution: null });

  // The execution that ends an instance and the instance's record go in one statement; a retry leaves one of each.
  await recordAgentCall(db, { instanceId: two.instanceId, iteration: 0, filesHash: 'sha256:g0', meta: meta(1) });
  await saveInstanceWithExecution(db, two, recordOf('p_02', 'success'), { iteration: 0, outcome });
  await saveInstanceWithExecution(db, two, recordOf('p_02', 'success'), { iteration: 0, outcome });
  expect(await instanceIterations(db, two.instanceId)).toEqual([{ instanceId: two.instanceId, iteration: 0, filesHash: 'sha256:g0', agent: meta(1), execution: outcome }]);
  expect(await studyRecords(db, 'repo')).toEqual([recordOf('p_01', 'success'), recordOf('p_02', 'success')]);
  expect(await db.selectFrom('instances').select('id').where('id', '=', two.instanceId).execute()).toHaveLength(1);

  // A study's agent calls, for its usage: the agent column of its recorded instances' iterations, in order.
  expect(await studyAgentCalls(db, 'repo')).toEqual([
    { instanceId: one.instanceId, iteration: 0, agent: meta(2) },
    { instanceId: one.instanceId, iteration: 1, agent: meta(3) },
    { instanceId: two.instanceId, iteration: 0, agent: meta(1) },
  ]);
  expect(await studyAgentCalls(db, 'other')).toEqual([]);
}

test('table modules round-trip studies, instances and iterations on Postgres', async () => {
  const { db, drop } = await freshDatabase();
  try {
    await exerciseRepositories(db);
  } finally {
    await drop();
  }
});

test('table modules round-trip studies, instances and iterations on PGlite', async () => {
  const db = await openDatabase({ stateDir: fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-pglite-')) });
  try {
    await migrateToLatest(db);
    await exerciseRepositories(db);
  } finally {
    await db.destroy();
  }
});
