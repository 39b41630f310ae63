import { freePort } from '../../../src/infra/freePort';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAIAgent } from '../../../src/agents/openai';
import { PREVIOUS_FILES_PREAMBLE, STRUCTURED_OUTPUT_INSTRUCTION } from '../../../src/agents/openaiProtocol';
import type { OpenAISpec } from '../../../src/agents/spec';
import { AgentInputError, AgentOutputError } from '../../../src/agents/types';
import { agentRequest } from './request';

const KEY = 'sk-test-0123456789abcdef';

interface Received {
  url: string;
  authorization: string | undefined;
  body: any;
}

/** What the fake endpoint answers next: a status and a body (an object is sent as JSON). */
type Reply = { status: number; body: unknown } | 'hang-up' | 'silent';

function completion(content: string | null, extra: Record<string, unknown> = {}) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 321, completion_tokens: 654, total_tokens: 975 },
    ...extra,
  };
}

function project(files: Array<{ path: string; content: string }>): string {
  return JSON.stringify({ files });
}

describe('OpenAIAgent against a local chat-completions server', () => {
  let server: http.Server;
  let baseUrl: string;
  let reply: Reply;
  let received: Received[];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        received.push({ url: req.url ?? '', authorization: req.headers.authorization, body: JSON.parse(raw) });
        if (reply === 'hang-up') {
          req.socket.destroy();
          return;
        }
        if (reply === 'silent') return; // the client gives up; afterAll closes the connection
        const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(text);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    received = [];
  });

  function agent(extra: Partial<OpenAISpec> = {}, env: NodeJS.ProcessEnv = { MY_KEY: KEY }): OpenAIAgent {
    return new OpenAIAgent({ kind: 'openai', name: 'local', base_url: baseUrl, model: 'test-model', api_key_env: 'MY_KEY', timeout_s: 10, ...extra }, env);
  }

  it('sends the prompt with the structured-output contract and returns the files and tokens', async () => {
    reply = { status: 200, body: completion(project([{ path: 'main.py', content: 'print(1)\n' }, { path: 'requirements.txt', content: '' }])) };
    const res = await agent({ temperature: 0, max_tokens: 4000 }).call(agentRequest({ prompt: 'TASK: X' }));

    expect(res.files).toEqual({ 'main.py': 'print(1)\n', 'requirements.txt': '' });
    expect(res).toMatchObject({ tokensIn: 321, tokensOut: 654, costUsd: null });
    expect(res.transcript).toContain('"main.py"');

    const [request] = received;
    expect(request.url).toBe('/v1/chat/completions');
    expect(request.authorization).toBe(`Bearer ${KEY}`);
    expect(request.body).toMatchObject({
      model: 'test-model',
      temperature: 0,
      max_tokens: 4000,
      messages: [
        { role: 'system', content: STRUCTURED_OUTPUT_INSTRUCTION },
        { role: 'user', content: 'TASK: X' },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'project', strict: true } },
    });
    expect(request.body.response_format.json_schema.schema.properties.files.items.required).toEqual(['path', 'content']);
  });

  it('sends the previous files before a repair prompt', async () => {
    reply = { status: 200, body: completion(project([{ path: 'main.py', content: 'fixed' }])) };
    await agent().call(agentRequest({ iteration: 1, prompt: 'Repair attempt 1 of 10.', previousFiles: { 'main.py': 'broken' } }));
    const user = received[0].body.messages[1].content as string;
    expect(user.startsWith(PREVIOUS_FILES_PREAMBLE)).toBe(true);
    expect(user).toContain('"path": "main.py"');
    expect(user).toContain('"content": "broken"');
    expect(user.endsWith('Repair attempt 1 of 10.')).toBe(true);
  });

  it('sends no Authorization header when the spec names no key variable', async () => {
    reply = { status: 200, body: completion(project([])) };
    await agent({ api_key_env: undefined }, {}).call(agentRequest());
    expect(received[0].authorization).toBeUndefined();
  });

  it('refuses to call when the named key variable is unset', async () => {
    await expect(agent({}, {}).call(agentRequest())).rejects.toThrow(
      new AgentInputError('openai agent "local": environment variable MY_KEY (api_key_env) is not set'),
    );
    expect(received).toEqual([]);
  });

  it('rejects content that is not JSON', async () => {
    reply = { status: 200, body: completion('Sure! Here is your project: main.py ...') };
    const call = agent().call(agentRequest());
    await expect(call).rejects.toBeInstanceOf(AgentOutputError);
    await expect(agent().call(agentRequest())).rejects.toThrow(/the model's answer is not JSON/);
  });

  it('says when invalid content was cut off at max_tokens', async () => {
    reply = { status: 200, body: { ...completion('{"files": [{"path": "a"'), choices: [{ message: { content: '{"files": [' }, finish_reason: 'length' }] } };
    await expect(agent().call(agentRequest())).rejects.toThrow(/cut off at max_tokens/);
  });

  it('rejects content of the wrong shape', async () => {
    reply = { status: 200, body: completion(JSON.stringify({ files: [{ name: 'main.py', text: 'x' }] })) };
    await expect(agent().call(agentRequest())).rejects.toThrow(/the model's answer is not \{"files": \[\{"path", "content"\}\]\}/);
  });

  it('rejects an unsafe path', async () => {
    reply = { status: 200, body: completion(project([{ path: '../x', content: 'escape' }])) };
    const call = agent().call(agentRequest());
    await expect(call).rejects.toBeInstanceOf(AgentOutputError);
    await expect(agent().call(agentRequest())).rejects.toThrow(/unsafe project path "\.\.\/x"/);
  });

  it('rejects a binary file whose content is not base64 (it could not be copied into the container)', async () => {
    reply = { status: 200, body: completion(project([{ path: 'logo.png', content: 'envgap:base64:not base64!' }])) };
    const call = agent().call(agentRequest());
    await expect(call).rejects.toBeInstanceOf(AgentOutputError);
    await expect(agent().call(agentRequest())).rejects.toThrow(/the model's answer has a binary file "logo\.png" whose content is not envgap:base64: followed by base64/);
  });

  it('rejects a path given twice', async () => {
    reply = { status: 200, body: completion(project([{ path: 'a.py', content: '1' }, { path: 'a.py', content: '2' }])) };
    await expect(agent().call(agentRequest())).rejects.toThrow(/has "a.py" twice/);
  });

  it('accepts JSON wrapped in a Markdown fence', async () => {
    reply = { status: 200, body: completion('```json\n' + project([{ path: 'a.py', content: '1' }]) + '\n```') };
    expect((await agent().call(agentRequest())).files).toEqual({ 'a.py': '1' });
  });

  it('reports a refusal', async () => {
    reply = { status: 200, body: { choices: [{ message: { content: null, refusal: 'I cannot help with that.' } }] } };
    await expect(agent().call(agentRequest())).rejects.toThrow(/refused: I cannot help with that\./);
  });

  it('turns 401 into a non-retryable error with the status and body, never the key', async () => {
    reply = { status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}` } } };
    const error = await agent()
      .call(agentRequest())
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(AgentInputError);
    expect((error as Error).message).toMatch(/HTTP 401 from http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: .*Incorrect API key provided/);
    expect((error as Error).message).not.toContain(KEY);
    expect((error as Error).stack).not.toContain(KEY);
  });

  it.each([500, 429, 408])('turns HTTP %i into a retryable error', async (status) => {
    reply = { status, body: { error: { message: 'try later' } } };
    const error = await agent()
      .call(agentRequest())
      .catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(AgentInputError);
    expect((error as Error).message).toContain(`HTTP ${status} from`);
    expect((error as Error).message).toContain('try later');
  });

  it('turns a broken connection into a retryable error', async () => {
    reply = 'hang-up';
    const error = await agent()
      .call(agentRequest())
      .catch((e: Error) => e);
    expect(error).not.toBeInstanceOf(AgentInputError);
    expect((error as Error).message).toMatch(/request to .* failed/);
  });

  it('turns a refused connection into a retryable error', async () => {
    const port = await freePort();
    const closed = new OpenAIAgent({ kind: 'openai', name: 'down', base_url: `http://127.0.0.1:${port}/v1`, model: 'm', timeout_s: 10 }, {});
    const error = await closed.call(agentRequest()).catch((e: Error) => e);
    expect(error).not.toBeInstanceOf(AgentInputError);
    expect((error as Error).message).toContain(`request to http://127.0.0.1:${port}/v1/chat/completions failed`);
    expect((error as Error).message).toContain('ECONNREFUSED');
  });

  it('gives up when the server does not answer in time', async () => {
    reply = 'silent';
    await expect(agent({ timeout_s: 0.3 }).call(agentRequest())).rejects.toThrow(/did not answer within 0.3 s/);
  });

  it('stops when aborted', async () => {
    reply = 'silent';
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(agent().call(agentRequest(), controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('treats a body that is not a chat completion as retryable', async () => {
    reply = { status: 200, body: '<html>proxy error</html>' };
    await expect(agent().call(agentRequest())).rejects.toThrow(/answered with something that is not JSON/);
    reply = { status: 200, body: { choices: [] } };
    await expect(agent().call(agentRequest())).rejects.toThrow(/not a chat completion/);
  });
});
