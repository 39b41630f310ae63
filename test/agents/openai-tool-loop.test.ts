import { OpenAIToolLoopAgent } from '../../src/agents/openaiToolLoop';
import type { ChatMessage } from '../../src/agents/chatRequest';
import type { AgentResponse } from '../../src/agents/types';
import type { OpenAISpec } from '../../src/domain/agentSpec';
import { startModelApi, type ModelApiDouble } from '../helpers/modelApi/server';
import { confinement, KEY, KEY_ENV, request } from './presetHarness';

// The openai kind's Gen/Repair tool loop in its real sandbox (the python runtime image, /work), against
// the model-API double: Gen writes hello.py with bash, Repair continues the same conversation.
let double: ModelApiDouble;

const GEN = 'ENVGAP-GEN: write hello.py';
const REPAIR = 'ENVGAP-REPAIR: hello.py failed; fix it';

beforeAll(async () => {
  double = await startModelApi({
    conversations: [
      { when: 'ENVGAP-GEN', turns: [{ shell: "printf 'print(1)\\n' > hello.py && python3 -m venv --without-pip tools/env && python3 hello.py" }, { text: 'Wrote hello.py.' }] },
      { when: 'ENVGAP-REPAIR', turns: [{ shell: "cat hello.py && printf 'print(2)\\n' >> hello.py" }, { text: 'Fixed hello.py.' }] },
    ],
    usage: { input: 1234, output: 56 },
  });
});
afterAll(() => double?.close());

const spec = (): OpenAISpec => ({ kind: 'openai', name: 'loop', base_url: `${double.url}/v1`, model: 'gpt-4o-mini', api_key_env: KEY_ENV, timeout_s: 600, run_file: true, tool_loop: true });

test('the openai tool loop answers Gen in its sandbox, and Repair in the same conversation', async () => {
  const agent = new OpenAIToolLoopAgent(spec(), { ...process.env, [KEY_ENV]: KEY }, confinement());
  const instanceId = 'openai-tool-loop/loop/python/p_01/1';
  const gen: AgentResponse = await agent.call(request(instanceId, 0, GEN, null));
  expect(gen.files).toEqual({ 'hello.py': 'print(1)\n' });
  // The command ran in the sandbox, in /work: python printed 1; the virtual environment is not the project.
  expect(gen.transcript).toContain('$ printf');
  expect(gen.transcript).toMatch(/\n1\n+\[exit 0\]/);
  expect(gen.transcript).toContain('tools/env: a virtual environment');
  expect({ tokensIn: gen.tokensIn, tokensOut: gen.tokensOut, costUsd: gen.costUsd }).toEqual({ tokensIn: 2468, tokensOut: 112, costUsd: null });
  expect(JSON.stringify(gen)).not.toContain(KEY);

  const atRepair = double.received.length;
  const repair = await agent.call(request(instanceId, 1, REPAIR, gen));
  expect(repair.files).toEqual({ 'hello.py': 'print(1)\nprint(2)\n' });
  // Memory: each Repair request holds Gen's turns (the system message once), then the Repair prompt.
  const bodies = double.received.slice(atRepair).map((r) => r.body);
  expect(bodies).toHaveLength(2);
  const genTurns: ChatMessage[] = JSON.parse(gen.session!.toString('utf8'));
  for (const body of bodies) {
    expect(body.messages.slice(0, genTurns.length)).toEqual(genTurns);
    expect(body.messages.filter((m: ChatMessage) => m.role === 'system')).toHaveLength(1);
    expect(body.messages.some((m: ChatMessage) => m.role === 'user' && m.content === GEN)).toBe(true);
    expect(body.messages[genTurns.length]).toEqual({ role: 'user', content: REPAIR });
  }
  // The previous project was in /work when Repair began.
  const repairTool = bodies[1].messages.filter((m: ChatMessage) => m.role === 'tool').at(-1);
  expect(repairTool.content).toMatch(/^print\(1\)\n/);
  expect(double.received.every((r) => r.status === 200)).toBe(true);
}, 10 * 60_000);
