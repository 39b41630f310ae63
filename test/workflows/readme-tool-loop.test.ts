import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { OpenAISpec } from '../../src/domain/agentSpec';
import type { AnswerOutcome, ReadmeRecord } from '../../src/domain/readme';
import type { ReadmeInstanceInput } from '../../src/domain/readmeStudy';
import type { readmeInstanceWorkflow } from '../../src/workflows/readme';
import { QUEUES } from '../../src/workers/queues';
import { startTestWorkflowWorker, startWorkflowEnvironment, type TestWorker } from '../helpers/workflowEnv';

// The README protocol's tool loop for an openai agent (agent mode), over fake activities: each model
// turn and tool call its own activity, the answer what finish carried, the budgets the agent's.
let env: TestWorkflowEnvironment;
let worker: TestWorker;
const recorded: ReadmeRecord[] = [];
const calls: { name: string; input: Record<string, unknown> }[] = [];
/** What the fake model does at each turn, per instance. */
let script: (turn: number) => { calls: { id: string; name: string; arguments: string }[]; text: string | null };
let turnCount = 0;

const answered: AnswerOutcome = { status: 'answered', problem: null, detected_errors: [], setup_script_hash: null, answer_hash: 'a', duration_s: 1, tokens_in: 30, tokens_out: 6, cost_usd: null };
const note = (name: string) => async (input: Record<string, unknown>) => void calls.push({ name, input });

beforeAll(async () => {
  env = await startWorkflowEnvironment();
  // The instance claims a worker on the cpu queue: the fake worker polls it (this server is the file's own).
  worker = await startTestWorkflowWorker(env, QUEUES.cpu, {
    prepareReadmeInstance: async () => ({ promptHash: 'prompt', goldHash: 'gold', gold: { errors: 1, types: ['E1'], level: 'level1' }, readmeFile: 'README.md' }),
    claimWorker: async () => QUEUES.cpu,
    openRepoContainer: async (input: Record<string, unknown>) => {
      calls.push({ name: 'openRepoContainer', input });
      return { container: 'c', trackedHash: 't' };
    },
    startConversation: async (input: Record<string, unknown>) => {
      calls.push({ name: 'startConversation', input });
      turnCount = 0;
      return 'conv-0';
    },
    modelTurn: async (input: Record<string, unknown>) => {
      calls.push({ name: 'modelTurn', input });
      turnCount++;
      return { conversationHash: `conv-${turnCount}m`, ...script(turnCount), tokensIn: 10, tokensOut: 2, durationMs: 1000 };
    },
    toolCall: async (input: { callId: string } & Record<string, unknown>) => {
      calls.push({ name: 'toolCall', input });
      const finish = input.callId.startsWith('finish');
      return { conversationHash: `conv-${turnCount}t`, name: finish ? 'finish' : 'bash', exitCode: 0, durationMs: 500, excerpt: '', report: finish ? 'THE ANSWER' : null, limit: null };
    },
    putText: async (input: { text: string }) => {
      calls.push({ name: 'putText', input });
      return `text:${input.text}`;
    },
    answerFromOutput: async (input: Record<string, unknown>) => {
      calls.push({ name: 'answerFromOutput', input });
      return answered;
    },
    openaiAnswer: async (input: Record<string, unknown>) => {
      calls.push({ name: 'openaiAnswer', input });
      return answered;
    },
    removeSessionContainer: note('removeSessionContainer'),
    scoreReadmeAnswer: async () => ({ instance: 'x', judge: 'deterministic', type: { tp: 0, fp: 0, fn: 1 } }),
    runSetupScript: async () => ({ status: 'skipped', reason: 'no script', exit_code: null, timed_out: false, missing_imports: null, missing: [], duration_s: null, log_excerpt: null, logHash: null }),
    recordReadme: async (input: { record: ReadmeRecord }) => void recorded.push(input.record),
  });
}, 120000);
afterAll(async () => {
  await worker?.stop();
  await env?.teardown();
});

const agent = (extra: Partial<OpenAISpec> = {}): OpenAISpec => ({ kind: 'openai', name: 'gpt', model: 'm', base_url: 'http://127.0.0.1:1/v1', tool_loop: true, timeout_s: 600, ...extra }) as OpenAISpec;

async function run(id: string, spec: OpenAISpec, agentTimeoutS = 600): Promise<typeof calls> {
  calls.length = 0;
  const input: ReadmeInstanceInput = {
    instanceId: id,
    study: 'wf',
    dataDir: '/data',
    agent: spec,
    instance: { name: 'jaraco_inflect_error_readme_1', repoFolder: 'error_gen_jaraco_inflect', repository: 'jaraco/inflect', source: { kind: 'archive', path: '/data/repos/jaraco__inflect.tar.gz' } },
    trial: 1,
    judge: { kind: 'deterministic' },
    pass: { run: false, timeoutS: 600 },
    agentTimeoutS,
    memoryMb: 1024,
    cpus: 1,
  };
  await env.client.workflow.execute<typeof readmeInstanceWorkflow>('readmeInstanceWorkflow', { workflowId: id, taskQueue: worker.taskQueue, args: [input] });
  return [...calls];
}

const named = (seen: typeof calls, name: string) => seen.filter((c) => c.name === name).map((c) => c.input);

test('turns and tool calls until finish: its answer is the answer, the tokens summed, the container removed', async () => {
  script = (turn) => ({ calls: [turn === 1 ? { id: 'bash-1', name: 'bash', arguments: '{"command":"ls"}' } : { id: 'finish-1', name: 'finish', arguments: '{"answer":"x"}' }], text: null });
  const seen = await run('wf/gpt/loop/1', agent());
  expect(named(seen, 'startConversation')).toEqual([{ task: 'readme', promptHash: 'prompt' }]);
  expect(named(seen, 'modelTurn').map((t) => t.task)).toEqual(['readme', 'readme']);
  expect(named(seen, 'toolCall').map((t) => [t.callId, t.task, t.conversationHash])).toEqual([
    ['bash-1', 'readme', 'conv-1m'],
    ['finish-1', 'readme', 'conv-2m'],
  ]);
  expect(named(seen, 'answerFromOutput')).toEqual([{ outputHash: 'text:THE ANSWER', exitCode: 0, timedOut: false, durationMs: 3000, tokensIn: 20, tokensOut: 4, costUsd: null, timeoutS: 600 }]);
  expect(named(seen, 'openRepoContainer')[0]).toMatchObject({ protocol: 'readme', repo: { source: { kind: 'archive' } } });
  expect(named(seen, 'removeSessionContainer')).toEqual([{ container: 'c' }]);
  expect(named(seen, 'openaiAnswer')).toEqual([]);
  expect(recorded.find((r) => r.instance_id === 'wf/gpt/loop/1')).toMatchObject({ status: 'completed', answer: { status: 'answered' } });
});

test("a model that stops without finish has no answer: the agent's failure, said as such", async () => {
  script = () => ({ calls: [], text: 'I think it is fine.' });
  const seen = await run('wf/gpt/stop/1', agent());
  expect(named(seen, 'answerFromOutput')).toEqual([expect.objectContaining({ failure: 'the model stopped without calling finish: I think it is fine.', exitCode: null, timedOut: false })]);
});

test('max_turns and the time limit bound the loop', async () => {
  script = (turn) => ({ calls: [{ id: `bash-${turn}`, name: 'bash', arguments: '{"command":"true"}' }], text: null });
  const turns = await run('wf/gpt/turns/1', agent({ max_turns: 3 }));
  expect(named(turns, 'modelTurn')).toHaveLength(3);
  expect(named(turns, 'answerFromOutput')).toEqual([expect.objectContaining({ failure: 'the agent used its 3 model turns (max_turns) without calling finish' })]);
  // 1.5 s a turn and its call, against a limit of 4 s: the third turn is not asked for.
  const time = await run('wf/gpt/time/1', agent(), 4);
  expect(named(time, 'modelTurn')).toHaveLength(3);
  expect(named(time, 'answerFromOutput')).toEqual([expect.objectContaining({ timedOut: true, exitCode: null })]);
});

test('without tool_loop an openai agent answers with one chat completion, as before', async () => {
  const seen = await run('wf/gpt/chat/1', agent({ tool_loop: false }));
  expect(named(seen, 'openaiAnswer')).toEqual([{ agent: expect.objectContaining({ tool_loop: false }), promptHash: 'prompt' }]);
  expect(named(seen, 'startConversation')).toEqual([]);
});
