import { openaiChat } from '../../helpers/modelApi/openaiChat';
import { startModelApi, type ModelApiDouble } from '../../helpers/modelApi/server';
import { waitFor } from '../../helpers/waitFor';
import type { ModelScript } from '../../helpers/modelApi/script';

/**
 * The double speaking OpenAI Chat Completions, as Qwen Code 0.24.4 (the openai SDK) and opencode
 * 1.18.33 (@ai-sdk/openai-compatible) call it: POST {base_url}/chat/completions, streamed with
 * stream_options.include_usage. Qwen Code sends user content as text parts (a <system-reminder> part
 * before the prompt) and tool results as parts; opencode sends strings. The requests below are theirs,
 * trimmed.
 */

const QWEN_SHELL = {
  type: 'function',
  function: {
    name: 'run_shell_command',
    description: 'Executes a given shell command (as `bash -c <command>`)',
    parameters: { type: 'object', properties: { command: { type: 'string' }, is_background: { type: 'boolean' }, timeout: { type: 'integer' }, description: { type: 'string' } }, required: ['command'] },
  },
};
const OPENCODE_BASH = {
  type: 'function',
  function: { name: 'bash', description: 'Executes a given bash command', parameters: { type: 'object', properties: { command: { type: 'string' }, description: { type: 'string' } }, required: ['command'] } },
};
const tool = (name: string) => ({ type: 'function', function: { name, parameters: { type: 'object', properties: {} } } });

function qwenUser(prompt: string) {
  return {
    role: 'user',
    content: [
      { type: 'text', text: '<system-reminder>\nThe current date is: Wednesday, December 2, 2026.\n</system-reminder>' },
      { type: 'text', text: `${prompt}\n\n` },
    ],
  };
}

function shellCall(id: string, name: string, command: string) {
  return { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify({ command }) } }] };
}

function qwenRequest(messages: object[]) {
  return { model: 'qwen3-coder-plus', messages: [{ role: 'system', content: 'You are Qwen Code.' }, ...messages], max_tokens: 32768, stream: true, stream_options: { include_usage: true }, tools: [tool('read_file'), QWEN_SHELL, tool('write_file')] };
}

const GEN: ModelScript = {
  conversations: [
    { when: 'Repair', turns: [{ text: 'Repaired.' }] },
    { when: 'hello', turns: [{ shell: "printf 'print(1)\\n' > hello.py" }, { text: 'Wrote hello.py.' }] },
    { when: 'limited', turns: [{ fail: 429 }] },
    { when: 'broken', turns: [{ fail: 500 }] },
    { when: 'denied', turns: [{ fail: 401 }] },
    { when: 'stuck', turns: [{ hang: true }] },
  ],
  usage: { input: 1000, output: 50 },
};

async function post(api: ModelApiDouble, body: object, path = '/v1/chat/completions') {
  return fetch(api.url + path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' }, body: JSON.stringify(body) });
}

/** The data of each server-sent event, parsed ('[DONE]' as it is). */
function chunks(text: string): any[] {
  return text
    .split('\n\n')
    .filter((event) => event.trim())
    .map((event) => {
      const data = /^data: (.*)$/m.exec(event)![1];
      return data === '[DONE]' ? data : JSON.parse(data);
    });
}

describe('the Chat Completions double: reading a request', () => {
  it("reads Qwen Code's text parts and counts the tool messages after the prompt", () => {
    expect(openaiChat.read(qwenRequest([qwenUser('Write hello.py')]), '/v1/chat/completions')).toEqual({
      lastUserText: '<system-reminder>\nThe current date is: Wednesday, December 2, 2026.\n</system-reminder>\nWrite hello.py\n\n',
      toolResultsSince: 0,
      toolNames: ['read_file', 'run_shell_command', 'write_file'],
      model: 'qwen3-coder-plus',
    });
    const second = qwenRequest([
      qwenUser('Write hello.py'),
      shellCall('call_1', 'run_shell_command', 'ls'),
      { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: 'Command: ls\nExit Code: 0' }] },
    ]);
    expect(openaiChat.read(second, '/v1/chat/completions')).toMatchObject({ lastUserText: expect.stringContaining('Write hello.py'), toolResultsSince: 1 });
  });

  it("reads opencode's resumed session by its newest prompt, with string contents", () => {
    const resumed = {
      model: 'Qwen/Qwen2.5-Coder-32B-Instruct',
      messages: [
        { role: 'system', content: 'You are opencode, an interactive CLI tool.' },
        { role: 'user', content: 'Write hello.py' },
        { role: 'assistant', content: '', tool_calls: shellCall('call_1', 'bash', 'ls').tool_calls },
        { role: 'tool', tool_call_id: 'call_1', content: '(no output)' },
        { role: 'assistant', content: 'Wrote hello.py.' },
        { role: 'user', content: 'Repair: hello.py fails' },
        { role: 'assistant', content: '', tool_calls: shellCall('call_2', 'bash', 'cat hello.py').tool_calls },
        { role: 'tool', tool_call_id: 'call_2', content: 'print(1)' },
      ],
      tools: [OPENCODE_BASH, tool('edit')],
      tool_choice: 'auto',
      stream: true,
      stream_options: { include_usage: true },
    };
    expect(openaiChat.read(resumed, '/v1/chat/completions')).toEqual({
      lastUserText: 'Repair: hello.py fails',
      toolResultsSince: 1,
      toolNames: ['bash', 'edit'],
      model: 'Qwen/Qwen2.5-Coder-32B-Instruct',
    });
  });

  it('reads an empty or odd body without throwing', () => {
    expect(openaiChat.read(null, '/v1/chat/completions')).toEqual({ lastUserText: '', toolResultsSince: 0, toolNames: [], model: '' });
    expect(openaiChat.read({ messages: [{ role: 'user', content: null }], tools: [{}] }, '/chat/completions')).toEqual({ lastUserText: '', toolResultsSince: 0, toolNames: [], model: '' });
  });

  it('picks the shell tool each CLI offers', () => {
    expect(openaiChat.shellTool(['read_file', 'run_shell_command'])).toBe('run_shell_command');
    expect(openaiChat.shellTool(['edit', 'bash', 'glob'])).toBe('bash');
    expect(openaiChat.shellTool(['read_file', 'write_file'])).toBeNull();
  });

  it('serves POST on any path that ends in /chat/completions, and nothing else', () => {
    expect(openaiChat.matches('POST', '/v1/chat/completions')).toBe(true);
    expect(openaiChat.matches('POST', '/compatible-mode/v1/chat/completions')).toBe(true);
    expect(openaiChat.matches('GET', '/v1/chat/completions')).toBe(false);
    expect(openaiChat.matches('POST', '/v1/responses')).toBe(false);
    expect(openaiChat.matches('POST', '/v1/messages')).toBe(false);
  });
});

describe('the Chat Completions double: answering', () => {
  let api: ModelApiDouble;
  beforeEach(async () => {
    api = await startModelApi(GEN);
  });
  afterEach(async () => {
    await api.close();
  });

  it('streams a call of the offered shell tool, then the usage chunk and [DONE]', async () => {
    const res = await post(api, qwenRequest([qwenUser('Write hello.py')]), '/compatible-mode/v1/chat/completions');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = chunks(await res.text());
    expect(events.at(-1)).toBe('[DONE]');
    const data = events.slice(0, -1);
    expect(data.every((c) => c.object === 'chat.completion.chunk' && c.model === 'qwen3-coder-plus')).toBe(true);
    expect(data[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    const call = data.flatMap((c) => c.choices.flatMap((choice: any) => choice.delta.tool_calls ?? []));
    expect(call).toEqual([{ index: 0, id: 'call_1', type: 'function', function: { name: 'run_shell_command', arguments: JSON.stringify({ command: "printf 'print(1)\\n' > hello.py" }) } }]);
    expect(data.map((c) => c.choices[0]?.finish_reason).filter(Boolean)).toEqual(['tool_calls']);
    expect(data.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 1000, completion_tokens: 50, total_tokens: 1050 } });
    expect(api.received[0]).toMatchObject({ protocol: 'openai-chat', status: 200, headers: { authorization: '[credential]' } });
    expect(api.sent).toEqual({ responses: 1, input: 1000, output: 50 });
  });

  it("fills the other arguments the shell tool's schema requires", async () => {
    const strict = { ...OPENCODE_BASH, function: { ...OPENCODE_BASH.function, parameters: { ...OPENCODE_BASH.function.parameters, properties: { command: { type: 'string' }, description: { type: 'string' }, is_background: { type: 'boolean' }, timeout: { type: 'integer' } }, required: ['command', 'description', 'is_background', 'timeout'] } } };
    const res = await post(api, { model: 'm', stream: true, messages: [{ role: 'user', content: 'Write hello.py' }], tools: [strict] });
    const call = chunks(await res.text()).find((c) => c !== '[DONE]' && c.choices[0]?.delta?.tool_calls)!.choices[0].delta.tool_calls[0];
    expect(JSON.parse(call.function.arguments)).toEqual({ command: "printf 'print(1)\\n' > hello.py", description: 'Run the scripted command', is_background: false, timeout: 120000 });
  });

  it('streams text after the tool result, with no usage chunk unless asked for', async () => {
    const body = {
      model: 'm',
      stream: true,
      messages: [{ role: 'user', content: 'Write hello.py' }, shellCall('call_1', 'bash', 'x'), { role: 'tool', tool_call_id: 'call_1', content: '(no output)' }],
      tools: [OPENCODE_BASH],
    };
    const events = chunks(await (await post(api, body)).text());
    const text = events.filter((c) => c !== '[DONE]').map((c) => c.choices[0]?.delta?.content ?? '').join('');
    expect(text).toBe('Wrote hello.py.');
    expect(events.filter((c) => c !== '[DONE]').map((c) => c.choices[0].finish_reason).filter(Boolean)).toEqual(['stop']);
    expect(events.some((c) => c !== '[DONE]' && c.usage)).toBe(false);
    expect(events.at(-1)).toBe('[DONE]');
  });

  it('answers a request without stream as one chat.completion', async () => {
    const res = await post(api, { model: 'm', messages: [{ role: 'user', content: 'Write hello.py' }], tools: [QWEN_SHELL] });
    expect(res.headers.get('content-type')).toBe('application/json');
    const completion = await res.json();
    expect(completion).toMatchObject({
      object: 'chat.completion',
      model: 'm',
      choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'run_shell_command' } }] } }],
      usage: { prompt_tokens: 1000, completion_tokens: 50, total_tokens: 1050 },
    });
    const text: any = await (await post(api, { model: 'm', messages: [{ role: 'user', content: 'Repair: it fails' }], tools: [QWEN_SHELL] })).json();
    expect(text.choices[0]).toMatchObject({ finish_reason: 'stop', message: { role: 'assistant', content: 'Repaired.' } });
  });

  it('answers an aux call (no tools: a title, a summary) with text and counts no tokens', async () => {
    const res = await post(api, { model: 'm', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Generate a title for: Write hello.py' }] });
    const events = chunks(await res.text());
    expect(events.filter((c) => c !== '[DONE]').map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('OK');
    expect(events.find((c) => c !== '[DONE]' && c.usage).usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
    expect(api.sent.responses).toBe(0);
  });

  it.each([
    [401, 'invalid_request_error', 'invalid_api_key', 'denied'],
    [429, 'requests', 'rate_limit_exceeded', 'limited'],
    [500, 'server_error', null, 'broken'],
  ])('fails with %i and an error body in OpenAI shape', async (status, type, code, prompt) => {
    const res = await post(api, { model: 'm', stream: true, messages: [{ role: 'user', content: prompt }], tools: [OPENCODE_BASH] });
    expect(res.status).toBe(status);
    const body: unknown = await res.json();
    expect(body).toEqual({ error: { message: expect.any(String), type, param: null, code } });
    expect(api.received[0].status).toBe(status);
    expect(api.sent.responses).toBe(0);
  });

  it('hangs until the double closes', async () => {
    const pending = post(api, { model: 'm', stream: true, messages: [{ role: 'user', content: 'stuck' }], tools: [OPENCODE_BASH] }).catch((e: Error) => e);
    await waitFor('the double to receive the hung request', () => api.received.length > 0);
    expect(api.received[0].status).toBe(0);
    await api.close();
    // fetch's TypeError comes from another realm than jest's, so its name, not instanceof.
    expect(String(await pending)).toMatch(/^TypeError: fetch failed/);
    api = await startModelApi(GEN);
  });
});

describe('the Chat Completions double: other routes', () => {
  it('lists models at GET .../models (not Gemini’s /v1beta)', async () => {
    const api = await startModelApi(GEN, [openaiChat]);
    try {
      const list = await (await fetch(`${api.url}/compatible-mode/v1/models`)).json();
      expect(list).toMatchObject({ object: 'list', data: expect.arrayContaining([expect.objectContaining({ id: 'qwen3-coder-plus', object: 'model' })]) });
      expect((await fetch(`${api.url}/v1beta/models`)).status).toBe(404);
    } finally {
      await api.close();
    }
  });
});
