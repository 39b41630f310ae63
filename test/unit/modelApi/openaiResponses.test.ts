import { openaiErrorBody, openaiResponses, readResponses, shellCallItem } from '../../helpers/modelApi/openaiResponses';
import { startModelApi, type ModelApiDouble } from '../../helpers/modelApi/server';
import type { ModelScript } from '../../helpers/modelApi/script';
import { waitFor } from '../../helpers/waitFor';

/**
 * The double speaking OpenAI's Responses API, as Codex CLI 0.171.0 calls it: POST {base_url}/responses,
 * streamed, its instructions as developer messages, an <environment_context> user message before the
 * prompt, the tools as functions (exec_command is its shell) plus built-ins (web_search) and
 * namespaces (multi_agent_v1), and for the "code mode" models one freeform `exec` tool in an
 * `additional_tools` input item.
 */

const TOOLS = [
  { type: 'function', name: 'exec_command', description: 'Runs a command in a PTY', strict: false, parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] } },
  { type: 'function', name: 'write_stdin', description: 'Writes characters', strict: false, parameters: { type: 'object', properties: {} } },
  { type: 'namespace', name: 'multi_agent_v1', description: 'Sub-agents', tools: [{ type: 'function', name: 'spawn_agent', parameters: { type: 'object' } }] },
  { type: 'web_search', external_web_access: true },
];

function message(role: string, text: string) {
  return { type: 'message', role, content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }] };
}

/** The opening input as Codex sends it: developer instructions, the environment, then the prompt. */
function opening(prompt: string) {
  return [
    message('developer', 'You are Codex, a coding agent based on GPT-5.'),
    message('user', '<environment_context>\n  <cwd>/workspace</cwd>\n  <shell>bash</shell>\n</environment_context>'),
    message('user', prompt),
  ];
}

function call(id: string, cmd: string) {
  return { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd }), call_id: id };
}

function output(id: string) {
  return { type: 'function_call_output', call_id: id, output: 'Chunk ID: f38683\nWall time: 0.0000 seconds\nProcess exited with code 0\nOutput:\n' };
}

function request(input: object[], extra: object = {}) {
  return { model: 'gpt-5.5', stream: true, input, tools: TOOLS, tool_choice: 'auto', parallel_tool_calls: true, store: false, include: ['reasoning.encrypted_content'], ...extra };
}

const GEN: ModelScript = {
  conversations: [
    { when: 'Repair', turns: [{ text: 'Repaired.' }] },
    { when: 'hello', turns: [{ shell: "printf 'print(1)\\n' > hello.py" }, { text: 'Wrote hello.py.' }] },
  ],
  usage: { input: 1000, output: 50 },
};

async function post(api: ModelApiDouble, body: object, path = '/v1/responses') {
  return fetch(api.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: 'Bearer sk-test' },
    body: JSON.stringify(body),
  });
}

/** The events of an SSE stream: [event name, data]. */
function events(text: string): [string, any][] {
  return text
    .split('\n\n')
    .filter((chunk) => chunk.trim())
    .map((chunk) => {
      const event = /^event: (.*)$/m.exec(chunk)![1];
      const data = JSON.parse(/^data: (.*)$/m.exec(chunk)![1]);
      return [event, data];
    });
}

describe('the Responses API double: reading a request', () => {
  it('finds the prompt after the environment message and counts the tool results after it', () => {
    expect(readResponses(request(opening('Write hello.py')))).toEqual({
      lastUserText: 'Write hello.py',
      toolResultsSince: 0,
      toolNames: ['exec_command', 'write_stdin', 'multi_agent_v1.spawn_agent', 'web_search'],
      model: 'gpt-5.5',
    });
    const second = request([...opening('Write hello.py'), call('call_1', 'ls'), output('call_1'), call('call_2', 'cat a'), output('call_2')]);
    expect(readResponses(second)).toMatchObject({ lastUserText: 'Write hello.py', toolResultsSince: 2 });
  });

  it('reads a resumed session by its newest prompt', () => {
    const resumed = [
      ...opening('Write hello.py'),
      call('call_1', 'ls'),
      output('call_1'),
      message('assistant', 'Wrote hello.py.'),
      message('developer', '<skills_instructions>'),
      message('user', 'Repair: hello.py fails'),
      call('call_2', 'cat hello.py'),
      { type: 'custom_tool_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: 'print(1)' }] },
    ];
    expect(readResponses(request(resumed))).toMatchObject({ lastUserText: 'Repair: hello.py fails', toolResultsSince: 1 });
  });

  it('takes a plain string input and string content', () => {
    expect(readResponses({ model: 'm', input: 'hi' })).toEqual({ lastUserText: 'hi', toolResultsSince: 0, toolNames: [], model: 'm' });
    expect(readResponses({ input: [{ role: 'user', content: 'hello' }] })).toMatchObject({ lastUserText: 'hello', model: '' });
    expect(readResponses(null)).toEqual({ lastUserText: '', toolResultsSince: 0, toolNames: [], model: '' });
  });

  it("finds a code-mode model's tools in its additional_tools item", () => {
    const additional = {
      type: 'additional_tools',
      role: 'developer',
      tools: [
        { type: 'namespace', name: 'functions', tools: [{ type: 'custom', name: 'exec', format: { type: 'grammar' } }, { type: 'function', name: 'wait' }] },
        { type: 'namespace', name: 'clock', tools: [{ type: 'function', name: 'sleep' }] },
      ],
    };
    const view = readResponses({ model: 'gpt-6-sol', stream: true, input: [additional, ...opening('Write hello.py')] });
    expect(view.toolNames).toEqual(['exec', 'wait', 'clock.sleep']);
    expect(openaiResponses.shellTool(view.toolNames)).toBe('exec');
  });

  it("picks Codex's shell among the tools, its unified exec first", () => {
    expect(openaiResponses.shellTool(['write_stdin', 'exec_command', 'shell'])).toBe('exec_command');
    expect(openaiResponses.shellTool(['shell_command', 'apply_patch'])).toBe('shell_command');
    expect(openaiResponses.shellTool(['shell'])).toBe('shell');
    expect(openaiResponses.shellTool(['local_shell', 'web_search'])).toBe('local_shell');
    expect(openaiResponses.shellTool(['web_search', 'view_image'])).toBeNull();
  });

  it('serves /responses under any base path and nothing else', () => {
    expect(openaiResponses.matches('POST', '/v1/responses')).toBe(true);
    expect(openaiResponses.matches('POST', '/openai/v1/responses')).toBe(true);
    expect(openaiResponses.matches('POST', '/responses')).toBe(true);
    expect(openaiResponses.matches('GET', '/v1/responses')).toBe(false);
    expect(openaiResponses.matches('POST', '/v1/chat/completions')).toBe(false);
    expect(openaiResponses.matches('POST', '/v1/messages')).toBe(false);
  });
});

describe('the Responses API double: calls of each shell tool', () => {
  it('runs the command with the argument shape each tool takes', () => {
    expect(shellCallItem('exec_command', 'echo hi', 'call_1', 'fc_1')).toEqual({
      type: 'function_call',
      id: 'fc_1',
      status: 'completed',
      call_id: 'call_1',
      name: 'exec_command',
      arguments: '{"cmd":"echo hi"}',
    });
    expect(JSON.parse(shellCallItem('shell_command', 'echo hi', 'c', 'i').arguments as string)).toEqual({ command: 'echo hi' });
    expect(JSON.parse(shellCallItem('shell', 'echo hi', 'c', 'i').arguments as string)).toEqual({ command: ['bash', '-lc', 'echo hi'] });
    expect(shellCallItem('local_shell', 'echo hi', 'c', 'i')).toMatchObject({ type: 'local_shell_call', call_id: 'c', action: { type: 'exec', command: ['bash', '-lc', 'echo hi'] } });
  });

  it("has a code-mode model's exec tool run JavaScript that calls exec_command", () => {
    const item = shellCallItem('exec', `printf 'a "b"\\n' > x`, 'c', 'i');
    expect(item).toMatchObject({ type: 'custom_tool_call', name: 'exec', call_id: 'c' });
    expect(item.input).toContain(`tools.exec_command({ cmd: ${JSON.stringify(`printf 'a "b"\\n' > x`)} })`);
  });
});

describe('the Responses API double over HTTP', () => {
  let api: ModelApiDouble;
  beforeEach(async () => {
    api = await startModelApi(GEN, [openaiResponses]);
  });
  afterEach(async () => {
    await api.close();
  });

  it('streams a call of exec_command as Codex reads it, with the usage in response.completed', async () => {
    const res = await post(api, request(opening('Write hello.py')));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const stream = events(await res.text());
    // The names in order, a run of deltas as one.
    expect(stream.map(([name]) => name).filter((name, i, all) => name !== all[i - 1])).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    for (const [name, data] of stream) expect(data.type).toBe(name);
    expect(stream.map(([, data]) => data.sequence_number)).toEqual(stream.map((_, i) => i));
    const done = stream.find(([name]) => name === 'response.output_item.done')![1].item;
    expect(done).toMatchObject({ type: 'function_call', name: 'exec_command', call_id: 'call_1', status: 'completed' });
    expect(JSON.parse(done.arguments)).toEqual({ cmd: "printf 'print(1)\\n' > hello.py" });
    const deltas = stream.filter(([name]) => name === 'response.function_call_arguments.delta').map(([, d]) => d.delta).join('');
    expect(deltas).toBe(done.arguments);
    const completed = stream[stream.length - 1][1].response;
    expect(completed).toMatchObject({ object: 'response', status: 'completed', model: 'gpt-5.5', output: [done] });
    expect(completed.usage).toEqual({
      input_tokens: 1000,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 50,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 1050,
    });
    expect(api.sent).toEqual({ responses: 1, input: 1000, output: 50 });
    expect(api.received[0]).toMatchObject({ protocol: 'openai-responses', method: 'POST', path: '/v1/responses', status: 200 });
    expect(api.received[0].headers.authorization).toBe('[credential]');
  });

  it('answers the text turn once the command ran, in output_text deltas', async () => {
    const res = await post(api, request([...opening('Write hello.py'), call('call_1', 'x'), output('call_1')]));
    const stream = events(await res.text());
    expect(stream.map(([name]) => name)).toContain('response.output_text.delta');
    const text = stream.filter(([name]) => name === 'response.output_text.delta').map(([, d]) => d.delta).join('');
    expect(text).toBe('Wrote hello.py.');
    const done = stream.find(([name]) => name === 'response.output_item.done')![1].item;
    expect(done).toMatchObject({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Wrote hello.py.' }] });
    expect(stream[stream.length - 1][1].response.usage).toMatchObject({ input_tokens: 1000, output_tokens: 50 });
  });

  it('chooses the Repair conversation by the newest prompt of a resumed session', async () => {
    const resumed = [...opening('Write hello.py'), call('call_1', 'x'), output('call_1'), message('assistant', 'Wrote hello.py.'), message('user', 'Repair: it fails')];
    const stream = events(await (await post(api, request(resumed))).text());
    expect(stream[stream.length - 1][1].response.output[0].content[0].text).toBe('Repaired.');
  });

  it('answers one JSON response where no stream was asked for', async () => {
    const res = await post(api, request(opening('Write hello.py'), { stream: false }));
    expect(res.headers.get('content-type')).toBe('application/json');
    const body: any = await res.json();
    expect(body).toMatchObject({ object: 'response', status: 'completed', usage: { input_tokens: 1000, output_tokens: 50, total_tokens: 1050 } });
    expect(body.output[0]).toMatchObject({ type: 'function_call', name: 'exec_command' });
  });

  it('runs the command through a code-mode model\'s exec tool, streamed as custom tool input', async () => {
    const additional = { type: 'additional_tools', tools: [{ type: 'namespace', name: 'functions', tools: [{ type: 'custom', name: 'exec' }] }] };
    const stream = events(await (await post(api, { model: 'gpt-6-sol', stream: true, input: [additional, ...opening('Write hello.py')] })).text());
    expect(stream.map(([name]) => name)).toContain('response.custom_tool_call_input.delta');
    const done = stream.find(([name]) => name === 'response.output_item.done')![1].item;
    expect(done).toMatchObject({ type: 'custom_tool_call', name: 'exec' });
    expect(done.input).toContain('tools.exec_command(');
  });

  it('answers a call offering no tools with plain text and no usage', async () => {
    const stream = events(await (await post(api, { model: 'gpt-5.5', stream: true, input: [message('user', 'Summarize hello')] })).text());
    expect(stream[stream.length - 1][1].response.output[0].content[0].text).toBe('OK');
    expect(api.sent.responses).toBe(0);
  });

  it('fails with the status and body OpenAI answers', async () => {
    for (const status of [401, 429, 500]) {
      api.script({ conversations: [{ turns: [{ fail: status }] }] });
      const res = await post(api, request(opening('Write hello.py')));
      expect(res.status).toBe(status);
      const body: any = await res.json();
      expect(body).toEqual(openaiErrorBody(status));
      expect(body.error).toEqual({ message: expect.any(String), type: expect.any(String), param: null, code: status === 500 ? null : expect.any(String) });
      if (status === 429) expect(res.headers.get('retry-after')).toBe('1');
    }
    expect(openaiErrorBody(401).error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key' });
    expect(openaiErrorBody(429).error).toMatchObject({ code: 'rate_limit_exceeded' });
    expect(openaiErrorBody(500).error).toMatchObject({ type: 'server_error' });
    expect(openaiErrorBody(418).error).toMatchObject({ type: 'invalid_request_error', message: 'The model-API double answers 418.' });
    expect(api.received.map((r) => r.status)).toEqual([401, 429, 500]);
  });

  it('leaves a hung request unanswered until the double closes', async () => {
    api.script({ conversations: [{ turns: [{ hang: true }] }] });
    const pending = post(api, request(opening('Write hello.py'))).catch((err) => err);
    await waitFor('the double to receive the hung request', () => api.received.length > 0);
    expect(api.received).toHaveLength(1);
    expect(api.received[0].status).toBe(0);
    await api.close();
    expect((await pending).message).toMatch(/fetch failed/);
    api = await startModelApi(GEN, [openaiResponses]);
  });

  it('lists models at GET /models under any base path', async () => {
    for (const path of ['/v1/models', '/openai/v1/models']) {
      const res = await fetch(api.url + path);
      expect(res.status).toBe(200);
      const body: any = await res.json();
      expect(body.object).toBe('list');
      expect(body.data.map((m: any) => m.id)).toContain('gpt-5.5');
    }
    expect((await fetch(api.url + '/v1/files')).status).toBe(404);
  });
});
