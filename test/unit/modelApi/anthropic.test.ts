import { anthropicMessages, readAnthropic } from '../../helpers/modelApi/anthropic';
import { startModelApi, type ModelApiDouble } from '../../helpers/modelApi/server';
import type { ModelScript } from '../../helpers/modelApi/script';

/** The double speaking Anthropic's Messages API, as Claude Code 2.1.332 calls it (POST /v1/messages?beta=true). */

const TOOLS = [
  { name: 'Agent', description: 'a subagent', input_schema: { type: 'object' } },
  { name: 'Bash', description: 'a shell command', input_schema: { type: 'object' } },
  { name: 'Write', description: 'a file', input_schema: { type: 'object' } },
];

/** The opening user message as Claude Code sends it: system reminders, then the prompt, in text blocks. */
function opening(prompt: string) {
  return {
    role: 'user',
    content: [
      { type: 'text', text: '<system-reminder>\n# Environment\nPrimary working directory: /workspace\n</system-reminder>' },
      { type: 'text', text: prompt, cache_control: { type: 'ephemeral' } },
    ],
  };
}

function toolUse(id: string, command: string) {
  return { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command, description: 'Run' } }] };
}

function toolResult(id: string) {
  return { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: '(Bash completed with no output)', is_error: false }] };
}

const GEN: ModelScript = {
  conversations: [
    { when: 'REPAIR', turns: [{ text: 'Repaired.' }] },
    { when: 'hello', turns: [{ shell: "printf 'print(1)\\n' > hello.py" }, { text: 'Wrote hello.py.' }] },
  ],
  usage: { input: 1000, output: 50 },
};

async function post(api: ModelApiDouble, body: object, path = '/v1/messages?beta=true') {
  return fetch(api.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
  });
}

async function json(res: Response): Promise<any> {
  return res.json();
}

/** The events of an SSE stream: [event name, data]. */
function events(text: string): [string, any][] {
  return text
    .split('\n\n')
    .filter((chunk) => chunk.trim())
    .map((chunk) => {
      const event = /^event: (.*)$/m.exec(chunk)![1];
      const data = JSON.parse(/^data: (.*)$/m.exec(chunk)![1]);
      expect(data.type).toBe(event);
      return [event, data];
    });
}

describe('the model-API double speaking Anthropic Messages', () => {
  let api: ModelApiDouble;
  beforeEach(async () => {
    api = await startModelApi(GEN, [anthropicMessages]);
  });
  afterEach(() => api.close());

  it('streams a Bash tool_use turn with the real event sequence and the scripted usage', async () => {
    const res = await post(api, { model: 'claude-sonnet-4-5', max_tokens: 32000, stream: true, tools: TOOLS, messages: [opening('Write hello.py')] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const stream = events(await res.text());
    const names = stream.map(([e]) => e).filter((e) => e !== 'ping');
    expect(names[0]).toBe('message_start');
    expect(names[1]).toBe('content_block_start');
    expect(names.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    expect(new Set(names.slice(2, -3))).toEqual(new Set(['content_block_delta']));

    const start = stream[0][1];
    expect(start.message).toMatchObject({ type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null });
    expect(start.message.usage).toMatchObject({ input_tokens: 1000, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    const block = stream.find(([e]) => e === 'content_block_start')![1];
    expect(block).toMatchObject({ index: 0, content_block: { type: 'tool_use', name: 'Bash', input: {} } });
    expect(block.content_block.id).toMatch(/^toolu_/);
    const json = stream
      .filter(([e]) => e === 'content_block_delta')
      .map(([, d]) => {
        expect(d.delta.type).toBe('input_json_delta');
        return d.delta.partial_json;
      })
      .join('');
    expect(JSON.parse(json)).toEqual({ command: "printf 'print(1)\\n' > hello.py", description: expect.any(String) });
    const delta = stream.find(([e]) => e === 'message_delta')![1];
    expect(delta.delta).toEqual({ stop_reason: 'tool_use', stop_sequence: null });
    expect(delta.usage).toMatchObject({ input_tokens: 1000, output_tokens: 50 });
    expect(api.sent).toEqual({ responses: 1, input: 1000, output: 50 });
    expect(api.received[0].view).toMatchObject({ lastUserText: expect.stringContaining('Write hello.py'), toolResultsSince: 0, toolNames: ['Agent', 'Bash', 'Write'] });
  });

  it('answers the turn after a tool result with text, as one JSON message where no stream is asked', async () => {
    const messages = [opening('Write hello.py'), toolUse('toolu_1', 'echo'), toolResult('toolu_1')];
    const res = await post(api, { model: 'claude-sonnet-4-5', max_tokens: 1024, tools: TOOLS, messages });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'Wrote hello.py.' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 1000, output_tokens: 50, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
    expect(body.id).toMatch(/^msg_/);
  });

  it('streams a text turn in text_delta pieces', async () => {
    const messages = [opening('Write hello.py'), toolUse('toolu_1', 'echo'), toolResult('toolu_1')];
    const stream = events(await (await post(api, { model: 'm', max_tokens: 1024, stream: true, tools: TOOLS, messages })).text());
    expect(stream.find(([e]) => e === 'content_block_start')![1].content_block).toEqual({ type: 'text', text: '' });
    const text = stream.filter(([e]) => e === 'content_block_delta').map(([, d]) => d.delta.text).join('');
    expect(text).toBe('Wrote hello.py.');
    expect(stream.find(([e]) => e === 'message_delta')![1].delta.stop_reason).toBe('end_turn');
  });

  it('picks the turn by the tool results after the latest prompt, so a resumed session starts the new conversation', async () => {
    const first = [opening('Write hello.py'), toolUse('toolu_1', 'echo'), toolResult('toolu_1'), { role: 'assistant', content: [{ type: 'text', text: 'Wrote hello.py.' }] }];
    const resumed = [...first, opening('REPAIR: the test failed')];
    expect(readAnthropic({ messages: resumed, tools: TOOLS })).toMatchObject({ toolResultsSince: 0, lastUserText: expect.stringContaining('REPAIR') });
    const body = await json(await post(api, { model: 'm', max_tokens: 10, tools: TOOLS, messages: resumed }));
    expect(body.content).toEqual([{ type: 'text', text: 'Repaired.' }]);
    // Two results in one message (parallel calls) count two.
    const parallel = [opening('x'), toolUse('a', 'a'), { role: 'user', content: [...toolResult('a').content, ...toolResult('b').content] }];
    expect(readAnthropic({ messages: parallel, tools: [] }).toolResultsSince).toBe(2);
    // A reminder riding beside a tool result does not make that message a prompt.
    const beside = [opening('Write hello.py'), toolUse('a', 'a'), { role: 'user', content: [...toolResult('a').content, { type: 'text', text: '<system-reminder>x</system-reminder>' }] }];
    expect(readAnthropic({ messages: beside, tools: [] })).toMatchObject({ toolResultsSince: 1, lastUserText: expect.stringContaining('Write hello.py') });
    // A string content is a prompt.
    expect(readAnthropic({ model: 'm', messages: [{ role: 'user', content: 'plain hello' }] })).toEqual({ lastUserText: 'plain hello', toolResultsSince: 0, toolNames: [], model: 'm' });
  });

  it("fails in Anthropic's error shape with the status's error type", async () => {
    const cases: [number, string][] = [
      [401, 'authentication_error'],
      [429, 'rate_limit_error'],
      [500, 'api_error'],
      [529, 'overloaded_error'],
      [400, 'invalid_request_error'],
    ];
    for (const [status, type] of cases) {
      api.script({ conversations: [{ turns: [{ fail: status }] }] });
      const res = await post(api, { model: 'm', max_tokens: 10, stream: true, tools: TOOLS, messages: [opening('go')] });
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await json(res)).toEqual({ type: 'error', error: { type, message: expect.any(String) } });
    }
    expect(api.received.map((r) => r.status)).toEqual([401, 429, 500, 529, 400]);
    expect(api.sent.responses).toBe(0);
  });

  it('says "prompt is too long" in a 400, as the API does for a context overflow', async () => {
    api.script({ conversations: [{ turns: [{ fail: 400 }] }] });
    const body = await json(await post(api, { model: 'm', max_tokens: 10, tools: TOOLS, messages: [opening('go')] }));
    expect(body.error.message).toMatch(/^prompt is too long/);
  });

  it('answers count_tokens, the reachability check and an aux call (no tools) without scripted usage', async () => {
    const count = await post(api, { model: 'm', messages: [opening('Write hello.py')] }, '/v1/messages/count_tokens?beta=true');
    expect(count.status).toBe(200);
    expect(await json(count)).toEqual({ input_tokens: expect.any(Number) });
    const hello = await fetch(api.url + '/api/hello', { method: 'HEAD' });
    expect(hello.status).toBe(200);
    const aux = await json(await post(api, { model: 'm', max_tokens: 10, messages: [opening('Title this session')] }));
    expect(aux.content[0].type).toBe('text');
    expect(aux.usage).toMatchObject({ input_tokens: 0, output_tokens: 0 });
    expect(api.sent.responses).toBe(0);
  });

  it('is the protocol the full double picks for /v1/messages and its count_tokens', async () => {
    const full = await startModelApi(GEN);
    try {
      await post(full, { model: 'm', max_tokens: 10, tools: TOOLS, messages: [opening('Write hello.py')] });
      const count = await post(full, { model: 'm', messages: [opening('x')] }, '/v1/messages/count_tokens?beta=true');
      expect(count.status).toBe(200);
      expect(full.received.map((r) => r.protocol)).toEqual(['anthropic-messages', 'none']);
      expect(full.sent.responses).toBe(1);
    } finally {
      await full.close();
    }
  });

  it('gives ids no other double gave (Claude Code takes a resumed tool_use id it has seen for an interrupted call)', async () => {
    const other = await startModelApi(GEN, [anthropicMessages]);
    try {
      const ask = (d: ModelApiDouble) => post(d, { model: 'm', max_tokens: 10, tools: TOOLS, messages: [opening('Write hello.py')] }).then(json);
      const [a, b] = [await ask(api), await ask(other)];
      expect(a.content[0].id).not.toBe(b.content[0].id);
      expect(a.id).not.toBe(b.id);
    } finally {
      await other.close();
    }
  });
});
