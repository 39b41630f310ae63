import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InstanceRecord } from '../../src/domain/instance';
import { DEFAULT_LIMITS, type InstanceInput } from '../../src/domain/study';
import { QUEUES } from '../../src/workers/queues';
import type { instanceWorkflow } from '../../src/workflows/instance';
import { useProtocolHarness } from '../helpers/harness';

// A model whose answers are unusable (not JSON) three times in a row, then a good project: the
// first iteration is the agent's failure, class AgentOutput, and Repair is told why.
const h = useProtocolHarness();
let model: http.Server;
let baseUrl: string;
const prompts: string[] = [];
let answers: string[] = [];

function completion(content: string) {
  return { id: 'c', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 20 } };
}

beforeAll(async () => {
  model = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw) as { messages: { content: string }[] };
      prompts.push(body.messages[body.messages.length - 1].content);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(completion(answers.shift() ?? 'no more answers')));
    });
  });
  await new Promise<void>((r) => model.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => model.close(() => r())));

function input(task: string, budget: number): InstanceInput {
  return {
    instanceId: `ao/model/python/${task}/1`, study: 'ao', agent: { kind: 'openai', name: 'model', base_url: baseUrl, model: 'm', timeout_s: 30 },
    language: 'python', task: { id: task, title: 't', domain: 'd' }, trial: 1, budget, limits: { ...DEFAULT_LIMITS, run_timeout_s: 30 },
  };
}

async function run(i: InstanceInput): Promise<InstanceRecord> {
  await h.server.client.workflow.execute<typeof instanceWorkflow>('instanceWorkflow', { workflowId: i.instanceId, taskQueue: QUEUES.cpu, args: [i] });
  const row = await h.database.db.selectFrom('instances').selectAll().where('id', '=', i.instanceId).executeTakeFirstOrThrow();
  return (typeof row.record === 'string' ? JSON.parse(row.record) : row.record) as InstanceRecord;
}

test('three unusable answers make a failed AgentOutput iteration; Repair gets the validation message and succeeds', async () => {
  prompts.length = 0;
  answers = ['not json at all', 'still {not json', 'Sure! Here is the project:', JSON.stringify({ files: [{ path: 'main.py', content: 'print("ok")\n' }, { path: 'requirements.txt', content: '' }] })];
  const record = await run(input('p_04', 2));
  expect(record).toMatchObject({ status: 'success', first_attempt_success: false, first_error_class: 'AgentOutput', repair_depth: 1, iterations: 2, error: null, declared: [], manifest_status: 'empty', manifest_error: null });
  expect(prompts).toHaveLength(4);
  expect(prompts[3]).toContain('Error class: AgentOutput');
  expect(prompts[3]).toContain("the agent's answer was unusable in 3 samples");
  expect(prompts[3]).toContain('not JSON');
}, 120000);

test('an agent whose answers stay unusable is failed, counted against it, not a harness error', async () => {
  prompts.length = 0;
  answers = [];
  const record = await run(input('p_13', 1));
  expect(record).toMatchObject({ status: 'failed', first_error_class: 'AgentOutput', repair_depth: null, iterations: 2, error: null, declared: null, installed: null });
  expect(prompts).toHaveLength(6);
}, 120000);
