import { AgentCallFailedError } from '../../src/agents/types';
import type { AgentResponse } from '../../src/agents/types';
import { startModelApi, type ModelApiDouble } from '../helpers/modelApi/server';
import { KEY, PRESET_KINDS, presetAgent, presetSpec, request } from './presetHarness';

// The real CLIs of the presets, from the npm registry, each in its agent sandbox against the model-API
// double: Gen writes a project with the agent's own shell tool, Repair continues the agent's session.
let double: ModelApiDouble;

const GEN = 'ENVGAP-GEN: write hello.py';
const REPAIR = 'ENVGAP-REPAIR: hello.py failed; fix it';

beforeAll(async () => {
  double = await startModelApi({
    conversations: [
      { when: 'ENVGAP-GEN', turns: [{ shell: "printf 'print(1)\\n' > hello.py && mkdir -p tools/env && touch tools/env/pyvenv.cfg tools/env/big.py" }, { text: 'Wrote hello.py.' }] },
      { when: 'ENVGAP-REPAIR', turns: [{ shell: "printf 'print(2)\\n' >> hello.py" }, { text: 'Fixed hello.py.' }] },
    ],
    usage: { input: 1234, output: 56 },
  });
});
afterAll(() => double?.close());

describe.each(PRESET_KINDS)('the %s preset in the environment gap protocol', (kind) => {
  it('answers Gen with the project it wrote in its sandbox, and Repair in the same session', async () => {
    const agent = presetAgent(presetSpec(kind, double));
    const instanceId = `presets-gap/${kind}/python/p_01/1`;
    const before = { ...double.sent, requests: double.received.length };
    const gen: AgentResponse = await agent.call(request(instanceId, 0, GEN, null));
    expect(gen.files).toEqual({ 'hello.py': 'print(1)\n' });
    expect(gen.transcript).toContain('tools/env: a virtual environment');
    expect({ tokensIn: gen.tokensIn, tokensOut: gen.tokensOut }).toEqual({ tokensIn: double.sent.input - before.input, tokensOut: double.sent.output - before.output });
    expect(gen.agentVersion).toMatch(new RegExp(`^${kind} `));
    expect(gen.session?.length).toBeGreaterThan(0);
    // The key reached the endpoint (the double saw a credential) and never the answer.
    expect(JSON.stringify(gen)).not.toContain(KEY);

    const sentBeforeRepair = { ...double.sent };
    const atRepair = double.received.length;
    const repair = await agent.call(request(instanceId, 1, REPAIR, gen));
    expect(repair.files).toEqual({ 'hello.py': 'print(1)\nprint(2)\n' });
    expect({ tokensIn: repair.tokensIn, tokensOut: repair.tokensOut }).toEqual({ tokensIn: double.sent.input - sentBeforeRepair.input, tokensOut: double.sent.output - sentBeforeRepair.output });
    // Memory: the Repair's model requests carry the Gen conversation.
    const repairBodies = double.received.slice(atRepair).map((r) => JSON.stringify(r.body));
    expect(repairBodies.some((b) => b.includes('ENVGAP-GEN') && b.includes('ENVGAP-REPAIR'))).toBe(true);
    expect(double.received.slice(before.requests).every((r) => r.status === 200)).toBe(true);
    // What envgap added to each call (sandbox up and down, files in and out, the session kept) is measured and kept.
    expect(gen.overheadMs).toBeGreaterThan(0);
    expect(repair.overheadMs).toBeGreaterThan(0);
    process.stdout.write(`${kind}: envgap overhead ${gen.overheadMs} ms (Gen), ${repair.overheadMs} ms (Repair)\n`);
  }, 20 * 60_000);
});

test('a preset that left no project is its own failed call, not an error', async () => {
  const quiet = await startModelApi({ conversations: [{ turns: [{ text: 'I will not write anything.' }] }] });
  try {
    const agent = presetAgent(presetSpec('claude-code', quiet));
    const err = await agent.call(request('presets-gap/empty/python/p_01/1', 0, 'ENVGAP-EMPTY', null)).catch((e) => e);
    expect(err).toBeInstanceOf(AgentCallFailedError);
    expect(err).toMatchObject({ errorClass: 'AgentOutput' });
    expect((err as AgentCallFailedError).spent.tokensIn).toBe(quiet.sent.input);
  } finally {
    await quiet.close();
  }
}, 10 * 60_000);
