import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_LIMITS, type InstanceInput } from '../../src/domain/study';
import { QUEUES } from '../../src/workers/queues';
import type { instanceWorkflow } from '../../src/workflows/instance';
import { useProtocolHarness, writeReplayCorpus } from '../helpers/harness';
import type { InstanceRecord } from '../../src/domain/instance';

// Real Temporal dev server, real Postgres, real Docker containers; only the agent is a recording.
const h = useProtocolHarness();

const failing = { 'main.py': 'import envgap_no_such_module\n', 'requirements.txt': '# nothing\n' };
const passing = { 'main.py': 'import json\nprint(json.dumps({"ok": True}))\n', 'requirements.txt': '# standard library only\n' };

async function runInstance(task: string, corpus: string, budget: number, limits: Partial<InstanceInput['limits']> = { run_timeout_s: 60 }): Promise<InstanceRecord> {
  const input: InstanceInput = {
    instanceId: `loop/replay/python/${task}/1`,
    study: 'loop',
    agent: { kind: 'replay', name: 'replay', path: corpus },
    language: 'python',
    task: { id: task, title: 't', domain: 'Math/Scientific' },
    trial: 1,
    budget,
    limits: { ...DEFAULT_LIMITS, ...limits },
  };
  await h.server.client.workflow.execute<typeof instanceWorkflow>('instanceWorkflow', {
    workflowId: input.instanceId,
    taskQueue: QUEUES.cpu,
    args: [input],
  });
  const row = await h.database.db.selectFrom('instances').selectAll().where('id', '=', input.instanceId).executeTakeFirstOrThrow();
  return row.record as unknown as InstanceRecord;
}

test('budget exhausted: k=2 repairs that all fail leave the instance failed after 3 executions', async () => {
  const corpus = writeReplayCorpus('python', 'p_41', [failing, failing, failing, passing]);
  const r = await runInstance('p_41', corpus, 2);
  if (r.status === 'error') console.log(r.error);
  expect(r.status).toBe('failed');
  expect(r.iterations).toBe(3);
  expect(r.first_attempt_success).toBe(false);
  expect(r.repair_depth).toBeNull();
  expect(r.first_error_class).toBe('MissingDep');
  expect(r.traced).toBeNull();
  const its = await h.database.db.selectFrom('iterations').select(['iteration']).where('instance_id', '=', 'loop/replay/python/p_41/1').execute();
  expect(its.map((i) => i.iteration).sort()).toEqual([0, 1, 2]);
});

test('success on the last allowed iteration counts as repaired at depth k', async () => {
  const corpus = writeReplayCorpus('python', 'p_42', [failing, failing, passing]);
  const r = await runInstance('p_42', corpus, 2);
  expect(r.status).toBe('success');
  expect(r.repair_depth).toBe(2);
  expect(r.first_attempt_success).toBe(false);
  expect(r.first_error_class).toBe('MissingDep');
  expect(r.declared).toEqual([]);
  expect(r.installed).toEqual([]);
  expect(r.traced).toEqual([]);
});

test('a recording that ends after a failed iteration, before the budget is spent, is an agent that gave up: failed, D2 kept', async () => {
  const ranAndFailed = { 'main.py': 'import six\nraise SystemExit("the program itself failed")\n', 'requirements.txt': 'six==1.16.0\n' };
  const corpus = writeReplayCorpus('python', 'p_43', [failing, ranAndFailed]);
  const r = await runInstance('p_43', corpus, 5);
  expect(r).toMatchObject({ status: 'failed', iterations: 2, agent_gave_up: true, repair_depth: null, error: null, first_error_class: 'MissingDep' });
  // The last execution installed its manifest and only the run failed: D2 is kept.
  expect(r.installed).toEqual(['six']);
  expect(r.traced).toBeNull();
});

test('an iteration a person wrote is kept apart in the record', async () => {
  const corpus = writeReplayCorpus('python', 'p_44', [failing, passing]);
  fs.writeFileSync(path.join(corpus, 'python/p_44/1/1/.replay.json'), '{"author": "human"}');
  const r = await runInstance('p_44', corpus, 3);
  expect(r).toMatchObject({ status: 'success', repair_depth: 1, human_iterations: [1] });
});

test('a first run that sleeps silently past its limit, then a server still serving at it: a Timeout (silent), then a success as a service, D3 its trace up to the stop', async () => {
  const silent = { 'main.py': 'import time\ntime.sleep(600)\n', 'requirements.txt': 'six==1.16.0\n' };
  const server = {
    'main.py': 'import http.server, six\nprint("serving", flush=True)\nhttp.server.HTTPServer(("0.0.0.0", 5000), http.server.BaseHTTPRequestHandler).serve_forever()\n',
    'requirements.txt': 'six==1.16.0\n',
  };
  const corpus = writeReplayCorpus('python', 'p_45', [silent, server]);
  const r = await runInstance('p_45', corpus, 2, { run_timeout_s: 6, service_grace_s: 2 });
  if (r.status === 'error') console.log(r.error);
  expect(r).toMatchObject({ status: 'success', repair_depth: 1, first_error_class: 'Timeout', timeout_kind: 'silent', run_kind: 'service', traced: ['six'] });
});
