import { MockActivityEnvironment } from '@temporalio/testing';
import { storeDeclared } from '../../src/activities/extract';
import { createRecordActivities } from '../../src/activities/record';
import { BlobStore } from '../../src/db/blobs';
import type { InstanceRecord } from '../../src/domain/instance';
import { isStoredNames, MAX_NAME_CHARS } from '../../src/domain/nameList';
import { buildInstanceRecord } from '../../src/domain/record';
import { DEFAULT_LIMITS, type InstanceInput } from '../../src/domain/study';
import { QUEUES } from '../../src/workers/queues';
import type { instanceWorkflow } from '../../src/workflows/instance';
import { useProtocolHarness, writeReplayCorpus } from '../helpers/harness';

// What an agent's manifest names enters workflow history; history has hard size limits. A 3 MiB
// requirement name once made an instance fail forever (GRPC_MESSAGE_TOO_LARGE) and its study never end.
const h = useProtocolHarness();

function input(task: string, corpus: string): InstanceInput {
  return {
    instanceId: `hl/replay/python/${task}/1`, study: 'hl', agent: { kind: 'replay', name: 'replay', path: corpus }, language: 'python',
    task: { id: task, title: 't', domain: 'd' }, trial: 1, budget: 0, limits: { ...DEFAULT_LIMITS, run_timeout_s: 30 },
  };
}

test('a 3 MiB requirement line: the instance ends and is recorded, the manifest invalid with a capped error', async () => {
  const name = 'a'.repeat(3 * 1024 * 1024);
  const corpus = writeReplayCorpus('python', 'p_04', [{ 'main.py': 'print("hi")\n', 'requirements.txt': `${name}\n` }]);
  const i = input('p_04', corpus);
  const outcome = await h.server.client.workflow.execute<typeof instanceWorkflow>('instanceWorkflow', { workflowId: i.instanceId, taskQueue: QUEUES.cpu, args: [i], workflowExecutionTimeout: '5 minutes' });
  expect(outcome.status).not.toBe('error');
  const record = await recordOf(i.instanceId);
  expect(record).toMatchObject({ declared: [], manifest_status: 'invalid' });
  expect(record.manifest_error).toMatch(/too long to be a requirement/);
  expect(record.manifest_error!.length).toBeLessThan(3000);
  const history = await h.server.client.workflow.getHandle(i.instanceId).fetchHistory();
  expect(JSON.stringify(history).length).toBeLessThan(512 * 1024);
}, 240000);

test('a 60 KB requirement name enters history capped, and the record holds the capped name', async () => {
  const name = 'b'.repeat(60 * 1024);
  const corpus = writeReplayCorpus('python', 'p_05', [{ 'main.py': 'print("hi")\n', 'requirements.txt': `${name}\n` }]);
  const i = input('p_05', corpus);
  await h.server.client.workflow.execute<typeof instanceWorkflow>('instanceWorkflow', { workflowId: i.instanceId, taskQueue: QUEUES.cpu, args: [i], workflowExecutionTimeout: '5 minutes' });
  const record = await recordOf(i.instanceId);
  expect(record.declared).toHaveLength(1);
  expect(record.declared![0].length).toBeLessThan(MAX_NAME_CHARS + 40);
  expect(record.declared![0].startsWith('b'.repeat(MAX_NAME_CHARS))).toBe(true);
  const history = await h.server.client.workflow.getHandle(i.instanceId).fetchHistory();
  expect(JSON.stringify(history).length).toBeLessThan(256 * 1024);
}, 240000);

async function recordOf(id: string): Promise<InstanceRecord> {
  const row = await h.database.db.selectFrom('instances').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return (typeof row.record === 'string' ? JSON.parse(row.record) : row.record) as InstanceRecord;
}

test('5000 declared names travel as a blob reference and are stored whole in the record', async () => {
  const blobs = new BlobStore(h.database.db);
  const names = Array.from({ length: 5000 }, (_, n) => `package-${n}`);
  // D1 as the execution brings it (src/activities/execute.ts).
  const declared = await storeDeclared(blobs, 'python', { 'requirements.txt': names.join('\n') + '\n', 'main.py': '' });
  const env = new MockActivityEnvironment();
  expect(isStoredNames(declared.names)).toBe(true);
  expect(JSON.stringify(declared).length).toBeLessThan(200);

  const inst = input('p_13', '/nonexistent');
  const draft = buildInstanceRecord(inst, { outcomes: [false], firstErrorClass: 'FetchFail', declared: declared.names, installed: null, traced: null, tracedBuild: null, tracedDebianPackages: null, error: null });
  await env.run(createRecordActivities({ db: h.database.db, blobs }).recordInstance, { input: inst, record: draft });
  const row = await h.database.db.selectFrom('instances').selectAll().where('id', '=', inst.instanceId).executeTakeFirstOrThrow();
  const record = (typeof row.record === 'string' ? JSON.parse(row.record) : row.record) as InstanceRecord;
  expect(record.declared).toEqual([...names].sort());
}, 60000);
