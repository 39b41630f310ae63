import { DEFAULT_LIMITS, type InstanceInput } from '../../src/domain/study';
import { QUEUES } from '../../src/workers/queues';
import type { instanceWorkflow } from '../../src/workflows/instance';
import { useProtocolHarness, writeReplayCorpus } from '../helpers/harness';
import type { InstanceRecord } from '../../src/domain/instance';

// Real Temporal dev server, real Postgres, real Docker containers; only the agent is a recording.
const h = useProtocolHarness();

const failing = { 'main.py': 'import envgap_no_such_module\n', 'requirements.txt': '# nothing\n' };
const passing = { 'main.py': 'import json\nprint(json.dumps({"ok": True}))\n', 'requirements.txt': '# standard library only\n' };

async function runInstance(task: string, corpus: string, budget: number): Promise<InstanceRecord> {
  const input: InstanceInput = {
    instanceId: `loop/replay/python/${task}/1`,
    study: 'loop',
    agent: { kind: 'replay', name: 'replay', path: corpus },
    language: 'python',
    task: { id: task, title: 't', domain: 'Math/Scientific' },
    trial: 1,
    budget,
    limits: { ...DEFAULT_LIMITS, run_timeout_s: 60 },
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

test('a recording that ends before the budget is an infrastructure error, not the agent failing', async () => {
  const corpus = writeReplayCorpus('python', 'p_43', [failing]);
  const r = await runInstance('p_43', corpus, 3);
  expect(r.status).toBe('error');
  expect(r.error?.kind).toBe('AgentInputError');
  expect(r.error?.message).toMatch(/iteration/i);
});
