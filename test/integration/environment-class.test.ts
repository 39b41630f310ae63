import type { InstanceRecord } from '../../src/domain/instance';
import { DEFAULT_LIMITS, type InstanceInput } from '../../src/domain/study';
import { QUEUES } from '../../src/workers/queues';
import type { instanceWorkflow } from '../../src/workflows/instance';
import { useProtocolHarness, writeReplayCorpus } from '../helpers/harness';

// A program that needs a Redis the machine does not have: the agent's failure? No: class Environment,
// with the rule that fired and the service it named in the record.
const h = useProtocolHarness();

test('a run that needs a Redis server is classed Environment, naming the rule and the service', async () => {
  const program = ['import redis', '', 'cache = redis.Redis(host="localhost", port=6379)', 'cache.set("greeting", "hello")', 'print(cache.get("greeting"))'].join('\n');
  const corpus = writeReplayCorpus('python', 'p_07', [{ 'main.py': program + '\n', 'requirements.txt': 'redis==5.0.8\n' }]);
  const input: InstanceInput = {
    instanceId: 'env/replay/python/p_07/1', study: 'env', agent: { kind: 'replay', name: 'replay', path: corpus }, language: 'python',
    task: { id: 'p_07', title: 't', domain: 'd' }, trial: 1, budget: 0, limits: { ...DEFAULT_LIMITS, run_timeout_s: 30 },
  };
  await h.server.client.workflow.execute<typeof instanceWorkflow>('instanceWorkflow', { workflowId: input.instanceId, taskQueue: QUEUES.cpu, args: [input] });
  const row = await h.database.db.selectFrom('instances').selectAll().where('id', '=', input.instanceId).executeTakeFirstOrThrow();
  const record = (typeof row.record === 'string' ? JSON.parse(row.record) : row.record) as InstanceRecord;
  expect(record).toMatchObject({ status: 'failed', first_error_class: 'Environment', environment: { service: 'Redis' } });
  expect(record.environment!.rule).toMatch(/\w/);
}, 120000);
