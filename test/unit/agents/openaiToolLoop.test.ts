import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { createAgent } from '../../../src/agents/registry';
import { OpenAIAgent } from '../../../src/agents/openai';
import {
  closeOpenCalls,
  encodeSession,
  GAP_TOOL_LOOP_SYSTEM,
  OpenAIToolLoopAgent,
  parseGapToolCall,
  runOpenAIToolLoop,
  startConversation,
  type ToolLoopSandbox,
} from '../../../src/agents/openaiToolLoop';
import type { ChatMessage } from '../../../src/agents/chatRequest';
import { AgentCallFailedError, AgentInputError, ModelEndpointError, type AgentRequest } from '../../../src/agents/types';
import { parseAgentSpec, type OpenAISpec } from '../../../src/domain/agentSpec';
import { fileBytes, type ProjectFiles } from '../../../src/domain/files';
import { startModelApi, type ModelApiDouble } from '../../helpers/modelApi/server';
import { agentRequest } from './request';

const KEY_ENV = 'ENVGAP_TEST_LOOP_KEY';
const KEY = 'sk-test-loop-0123456789abcdefABCDEF';
const ENV = { [KEY_ENV]: KEY };

function loopSpec(baseUrl: string, extra: Partial<OpenAISpec> = {}): OpenAISpec {
  return { kind: 'openai', name: 'loop', base_url: baseUrl, model: 'm', api_key_env: KEY_ENV, timeout_s: 60, run_file: true, tool_loop: true, ...extra };
}

/** A sandbox in memory: /work's files, bash commands recorded and answered by `onBash`. */
class FakeSandbox implements ToolLoopSandbox {
  readonly files = new Map<string, string>();
  readonly execs: { cmd: string[]; timeoutS: number; workdir?: string }[] = [];
  readonly puts: { dir: string; files: ProjectFiles }[] = [];
  constructor(private readonly onBash: (command: string, sb: FakeSandbox) => Promise<string> | string = (c) => `ran ${c}\n`) {}

  async exec(cmd: string[], o: { timeoutS: number; workdir?: string }) {
    this.execs.push({ cmd, timeoutS: o.timeoutS, workdir: o.workdir });
    const output = await this.onBash(cmd[2] ?? '', this);
    return { exitCode: 0, output, timedOut: false };
  }

  async put(dir: string, files: ProjectFiles) {
    this.puts.push({ dir, files });
    for (const [name, content] of Object.entries(files)) this.files.set(path.posix.join(dir, name), fileBytes(content).toString('utf8'));
  }

  async readFile(p: string) {
    const text = this.files.get(p);
    return text === undefined ? null : Buffer.from(text, 'utf8');
  }

  async project() {
    const files: ProjectFiles = {};
    for (const [p, text] of this.files) if (p.startsWith('/work/')) files[p.slice('/work/'.length)] = text;
    return { files, notes: [] };
  }
}

function loop(spec: OpenAISpec, req: AgentRequest, sandbox: FakeSandbox, extra: { signal?: AbortSignal; retryDelaysMs?: number[] } = {}) {
  return runOpenAIToolLoop({ spec, env: ENV, req, sandbox, readProject: () => sandbox.project(), retryDelaysMs: [1, 1], ...extra });
}

const sessionOf = (b: Buffer | null | undefined): ChatMessage[] => JSON.parse(b!.toString('utf8'));

/** A chat-completions server answering from a list of handlers, one per request (the last one repeats). */
async function scriptedServer(replies: ((body: any) => { status: number; body: unknown } | 'hang')[]) {
  const received: any[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = JSON.parse(raw);
      received.push(body);
      const reply = replies[Math.min(received.length - 1, replies.length - 1)]!(body);
      if (reply === 'hang') return;
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const calls = (...cs: [string, unknown][]) => () => ({
  status: 200,
  body: {
    choices: [{ message: { role: 'assistant', content: null, tool_calls: cs.map(([name, args], i) => ({ id: `c${i}_${name}`, type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } })) }, finish_reason: 'tool_calls' }],
    usage: { prompt_tokens: 10, completion_tokens: 2 },
  },
});

describe('the conversation across calls', () => {
  it('starts with the system message and the prompt, and continues a session with the next prompt', () => {
    const gen = startConversation(null, 'GEN');
    expect(gen).toEqual({ messages: [{ role: 'system', content: GAP_TOOL_LOOP_SYSTEM }, { role: 'user', content: 'GEN' }], note: null });
    const turns: ChatMessage[] = [...gen.messages, { role: 'assistant', content: 'done' }];
    const repair = startConversation(encodeSession(turns), 'REPAIR');
    expect(repair.messages).toEqual([...turns, { role: 'user', content: 'REPAIR' }]);
    expect(repair.messages.filter((m) => m.role === 'system')).toHaveLength(1);
  });

  it('answers the tool calls a session left open, so the endpoint takes the conversation', () => {
    const open: ChatMessage[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'GEN' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'bash', arguments: '{}' } }, { id: 'b', type: 'function', function: { name: 'bash', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'a', content: 'ok' },
    ];
    const { messages } = startConversation(encodeSession(open), 'REPAIR');
    expect(messages.slice(4)).toEqual([{ role: 'tool', tool_call_id: 'b', content: 'not run: the call ended first' }, { role: 'user', content: 'REPAIR' }]);
    const closed = [...open];
    closeOpenCalls(closed, 'x');
    closeOpenCalls(closed, 'y');
    expect(closed.filter((m) => m.role === 'tool')).toHaveLength(2);
  });

  it('starts afresh from a session it cannot read, and says so', () => {
    for (const session of [Buffer.from('not json'), Buffer.from('{"a":1}'), Buffer.from('[{"role":"robot","content":"x"}]')]) {
      const r = startConversation(session, 'REPAIR');
      expect(r.messages).toEqual([{ role: 'system', content: GAP_TOOL_LOOP_SYSTEM }, { role: 'user', content: 'REPAIR' }]);
      expect(r.note).toMatch(/a new conversation$/);
    }
  });
});

describe('tool calls', () => {
  it('resolves paths in /work, caps bash time limits, and tells the model what is wrong with a call', () => {
    expect(parseGapToolCall('read_file', '{"path":"src/a.py"}', 60)).toEqual({ call: { name: 'read_file', path: '/work/src/a.py' } });
    expect(parseGapToolCall('write_file', '{"path":"/tmp/x","content":""}', 60)).toEqual({ call: { name: 'write_file', path: '/tmp/x', content: '' } });
    expect(parseGapToolCall('read_file', '{"path":"../etc/passwd"}', 60)).toEqual({ call: { name: 'read_file', path: '/etc/passwd' } });
    expect(parseGapToolCall('bash', '{"command":"ls"}', 42.5)).toEqual({ call: { name: 'bash', command: 'ls', timeoutS: 42 } });
    expect(parseGapToolCall('bash', '{"command":"ls","timeout_s":5}', 60)).toEqual({ call: { name: 'bash', command: 'ls', timeoutS: 5 } });
    expect(parseGapToolCall('bash', '{"command":"ls"}', 0.2)).toEqual({ call: { name: 'bash', command: 'ls', timeoutS: 1 } });
    expect(parseGapToolCall('finish', '', 60)).toEqual({ call: { name: 'finish', summary: null } });
    expect(parseGapToolCall('finish', '{"summary":"ok"}', 60)).toEqual({ call: { name: 'finish', summary: 'ok' } });
    expect(parseGapToolCall('rm', '{}', 60)).toEqual({ problem: 'unknown tool "rm"; the tools are bash, read_file, write_file and finish' });
    expect(parseGapToolCall('toString', '{}', 60)).toMatchObject({ problem: expect.stringContaining('unknown tool') });
    expect(parseGapToolCall('bash', '{"command":', 60)).toMatchObject({ problem: expect.stringContaining('not JSON') });
    expect(parseGapToolCall('bash', '{}', 60)).toMatchObject({ problem: expect.stringContaining('the arguments of bash') });
  });

  it('runs each call in the sandbox, answers every call, and ends at finish', async () => {
    const server = await scriptedServer([
      calls(['write_file', { path: 'src/app.py', content: 'print(1)\n' }], ['read_file', { path: 'src/app.py' }], ['read_file', { path: 'nope' }], ['bash', { command: 'python src/app.py', timeout_s: 9999 }], ['magic', {}], ['bash', '{"cmd":1}']),
      calls(['finish', { summary: 'wrote app' }], ['bash', { command: 'never' }]),
    ]);
    try {
      const sandbox = new FakeSandbox(() => 'x'.repeat(20_000));
      const r = await loop(loopSpec(server.url), agentRequest({ previousFiles: { 'README.md': '# old\n' } }), sandbox);
      expect(sandbox.puts[0]).toEqual({ dir: '/work', files: { 'README.md': '# old\n' } });
      expect(r.files).toEqual({ 'README.md': '# old\n', 'src/app.py': 'print(1)\n' });
      expect(sandbox.execs).toEqual([{ cmd: ['bash', '-c', 'python src/app.py'], timeoutS: expect.any(Number), workdir: '/work' }]);
      // Asked for 9999 s: given what is left of the call's 60 s.
      expect(sandbox.execs[0]!.timeoutS).toBeGreaterThanOrEqual(50);
      expect(sandbox.execs[0]!.timeoutS).toBeLessThanOrEqual(60);
      expect(server.received).toHaveLength(2);
      expect({ tokensIn: r.tokensIn, tokensOut: r.tokensOut, costUsd: r.costUsd }).toEqual({ tokensIn: 20, tokensOut: 4, costUsd: null });
      // The second request offered the tools and carried a result for every call of the first.
      const second = server.received[1];
      expect(second.tools.map((t: any) => t.function.name)).toEqual(['bash', 'read_file', 'write_file', 'finish']);
      expect(second.model).toBe('m');
      const results = second.messages.filter((m: ChatMessage) => m.role === 'tool').map((m: ChatMessage) => [m.tool_call_id, m.content]);
      expect(results.map((x: string[]) => x[0])).toEqual(['c0_write_file', 'c1_read_file', 'c2_read_file', 'c3_bash', 'c4_magic', 'c5_bash']);
      expect(results[0][1]).toBe('wrote 9 bytes to /work/src/app.py');
      expect(results[1][1]).toBe('print(1)\n');
      expect(results[2][1]).toBe('error: no file /work/nope');
      expect(results[3][1]).toMatch(/\[envgap: output cut to its last 16384 of 20000 bytes\]\n\[exit 0\]$/);
      expect(results[4][1]).toMatch(/^error: unknown tool "magic"/);
      expect(results[5][1]).toMatch(/^error: the arguments of bash/);
      // The session ends on finish's result and the call after it, not run.
      const session = sessionOf(r.session);
      expect(session.slice(-2)).toEqual([
        { role: 'tool', tool_call_id: 'c0_finish', content: 'finished' },
        { role: 'tool', tool_call_id: 'c1_bash', content: 'not run: finish was called first' },
      ]);
      expect(r.transcript).toContain('$ python src/app.py');
      expect(r.transcript).toContain('finish: wrote app');
    } finally {
      await server.close();
    }
  });
});

describe('with the model-API double', () => {
  let double: ModelApiDouble;
  beforeAll(async () => {
    double = await startModelApi({
      conversations: [
        { when: 'ENVGAP-GEN', turns: [{ shell: 'write hello.py' }, { text: 'Wrote hello.py.' }] },
        { when: 'ENVGAP-REPAIR', turns: [{ shell: 'append hello.py' }, { text: 'Fixed.' }] },
        { when: 'ENVGAP-SLOW', turns: [{ hang: true }] },
        { when: 'ENVGAP-401', turns: [{ fail: 401 }] },
        { when: 'ENVGAP-403', turns: [{ fail: 403 }] },
        { when: 'ENVGAP-429', turns: [{ fail: 429 }] },
        { when: 'ENVGAP-404', turns: [{ fail: 404 }] },
        { when: 'ENVGAP-QUIET', turns: [{ text: 'Nothing to do.' }] },
      ],
      usage: { input: 100, output: 7 },
    });
  });
  afterAll(() => double.close());

  const editor = () =>
    new FakeSandbox((command, sb) => {
      if (command === 'write hello.py') sb.files.set('/work/hello.py', 'print(1)\n');
      if (command === 'append hello.py') sb.files.set('/work/hello.py', `${sb.files.get('/work/hello.py')}print(2)\n`);
      return '';
    });

  it('answers Gen, then Repair in the same conversation', async () => {
    const spec = loopSpec(`${double.url}/v1`);
    const gen = await loop(spec, agentRequest({ prompt: 'ENVGAP-GEN: write hello.py' }), editor());
    expect(gen.files).toEqual({ 'hello.py': 'print(1)\n' });
    expect({ tokensIn: gen.tokensIn, tokensOut: gen.tokensOut }).toEqual({ tokensIn: 200, tokensOut: 14 });
    expect(sessionOf(gen.session).map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant']);
    expect(double.received.at(-1)!.headers.authorization).toBe('[credential]');

    const atRepair = double.received.length;
    const sandbox = editor();
    const repair = await loop(spec, agentRequest({ iteration: 1, prompt: 'ENVGAP-REPAIR: fix hello.py', previousFiles: gen.files, session: gen.session }), sandbox);
    expect(sandbox.puts[0]).toEqual({ dir: '/work', files: { 'hello.py': 'print(1)\n' } });
    expect(repair.files).toEqual({ 'hello.py': 'print(1)\nprint(2)\n' });
    // Every Repair request carries Gen's turns, the system message once, and the Repair prompt last among the user messages.
    const bodies = double.received.slice(atRepair).map((r) => r.body);
    expect(bodies).toHaveLength(2);
    for (const body of bodies) {
      expect(body.messages.filter((m: ChatMessage) => m.role === 'system')).toHaveLength(1);
      expect(body.messages.slice(0, 5)).toEqual(sessionOf(gen.session));
      expect(body.messages[5]).toEqual({ role: 'user', content: 'ENVGAP-REPAIR: fix hello.py' });
    }
    expect(sessionOf(repair.session).map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool', 'assistant']);
    expect(JSON.stringify(repair)).not.toContain(KEY);
  });

  it('ends a model that stops without a project as AgentOutput, with what it spent', async () => {
    const err = await loop(loopSpec(`${double.url}/v1`), agentRequest({ prompt: 'ENVGAP-QUIET' }), new FakeSandbox()).catch((e) => e);
    expect(err).toBeInstanceOf(AgentCallFailedError);
    expect(err).toMatchObject({ errorClass: 'AgentOutput', spent: { tokensIn: 100, tokensOut: 7, costUsd: null } });
    expect(sessionOf(err.spent.session).at(-1)).toEqual({ role: 'assistant', content: 'Nothing to do.' });
  });

  it('stops at timeout_s while the model does not answer: AgentTimeout, the session kept', async () => {
    // The double never answers: only the time limit can have ended the call.
    const err = await loop(loopSpec(`${double.url}/v1`, { timeout_s: 0.5 }), agentRequest({ prompt: 'ENVGAP-SLOW' }), new FakeSandbox()).catch((e) => e);
    expect(err).toBeInstanceOf(AgentCallFailedError);
    expect(err).toMatchObject({ errorClass: 'AgentTimeout' });
    expect(err.message).toContain('0.5 s (timeout_s)');
    expect(sessionOf(err.spent.session).map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('tells the endpoint refusing the key (auth) from it being unavailable, the key never in the message', async () => {
    for (const code of [401, 403]) {
      const err = await loop(loopSpec(`${double.url}/v1`), agentRequest({ prompt: `ENVGAP-${code}` }), new FakeSandbox()).catch((e) => e);
      expect(err).toBeInstanceOf(ModelEndpointError);
      expect(err).toMatchObject({ fault: 'auth' });
      expect(err.message).toContain(`HTTP ${code}`);
      expect(err.message).not.toContain(KEY);
    }
    const before = double.received.length;
    const err = await loop(loopSpec(`${double.url}/v1`), agentRequest({ prompt: 'ENVGAP-429' }), new FakeSandbox()).catch((e) => e);
    expect(err).toBeInstanceOf(ModelEndpointError);
    expect(err).toMatchObject({ fault: 'unavailable' });
    expect(double.received.length - before).toBe(3);
    const other = await loop(loopSpec(`${double.url}/v1`), agentRequest({ prompt: 'ENVGAP-404' }), new FakeSandbox()).catch((e) => e);
    expect(other).toBeInstanceOf(AgentInputError);
  });
});

describe('limits and faults', () => {
  it('stops after max_turns model turns without finish: AgentBudget', async () => {
    const server = await scriptedServer([calls(['bash', { command: 'true' }])]);
    try {
      const err = await loop(loopSpec(server.url, { max_turns: 3 }), agentRequest(), new FakeSandbox()).catch((e) => e);
      expect(err).toBeInstanceOf(AgentCallFailedError);
      expect(err).toMatchObject({ errorClass: 'AgentBudget', spent: { tokensIn: 30, tokensOut: 6 } });
      expect(server.received).toHaveLength(3);
      // Every call answered: the next Repair can continue the conversation.
      const session = sessionOf(err.spent.session);
      expect(session.filter((m) => m.role === 'tool')).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it('gives bash no more than the time left, and stops at timeout_s: AgentTimeout, open calls answered', async () => {
    const server = await scriptedServer([calls(['bash', { command: 'sleep 600' }], ['bash', { command: 'echo later' }])]);
    try {
      const sandbox = new FakeSandbox(() => new Promise((resolve) => setTimeout(() => resolve('slept'), 1_200)));
      const err = await loop(loopSpec(server.url, { timeout_s: 1 }), agentRequest(), sandbox).catch((e) => e);
      expect(err).toBeInstanceOf(AgentCallFailedError);
      expect(err).toMatchObject({ errorClass: 'AgentTimeout' });
      expect(sandbox.execs).toHaveLength(1);
      expect(sandbox.execs[0]!.timeoutS).toBe(1);
      const session = sessionOf(err.spent.session);
      expect(session.slice(-2).map((m) => m.content)).toEqual([expect.stringContaining('slept'), 'not run: the call reached its time limit']);
    } finally {
      await server.close();
    }
  });

  it('tries an unavailable endpoint again, and takes an overflowing context as the agent’s AgentContext', async () => {
    const server = await scriptedServer([
      () => ({ status: 503, body: { error: { message: 'overloaded' } } }),
      () => ({ status: 200, body: '<html>proxy</html>' }),
      calls(['finish', {}]),
      () => ({ status: 400, body: { error: { code: 'context_length_exceeded', message: 'maximum context length' } } }),
    ]);
    try {
      const sandbox = new FakeSandbox();
      const ok = await loop(loopSpec(server.url), agentRequest({ previousFiles: { 'a.py': 'x' } }), sandbox);
      expect(ok.files).toEqual({ 'a.py': 'x' });
      expect(server.received).toHaveLength(3);
      const err = await loop(loopSpec(server.url), agentRequest(), new FakeSandbox()).catch((e) => e);
      expect(err).toBeInstanceOf(AgentCallFailedError);
      expect(err).toMatchObject({ errorClass: 'AgentContext' });
      // The next call starts a new conversation: this one would overflow again.
      expect(sessionOf(err.spent.session)).toEqual([{ role: 'system', content: GAP_TOOL_LOOP_SYSTEM }]);
      expect(startConversation(err.spent.session, 'REPAIR').messages).toEqual([{ role: 'system', content: GAP_TOOL_LOOP_SYSTEM }, { role: 'user', content: 'REPAIR' }]);
    } finally {
      await server.close();
    }
  });

  it('takes an unreachable endpoint as unavailable', async () => {
    const server = await scriptedServer([() => 'hang']);
    const url = server.url;
    await server.close();
    const err = await loop(loopSpec(url), agentRequest(), new FakeSandbox()).catch((e) => e);
    expect(err).toBeInstanceOf(ModelEndpointError);
    expect(err).toMatchObject({ fault: 'unavailable' });
    expect(err.message).toContain('3 tries');
  });

  it('refuses at once where the key variable is not set', async () => {
    const err = await runOpenAIToolLoop({ spec: loopSpec('http://127.0.0.1:9/v1'), env: {}, req: agentRequest(), sandbox: new FakeSandbox(), readProject: async () => ({ files: {}, notes: [] }) }).catch((e) => e);
    expect(err).toBeInstanceOf(AgentInputError);
    expect(err.message).toContain(`${KEY_ENV} (api_key_env) is not set`);
  });
});

describe('the openai kind', () => {
  it('answers Gen/Repair with the tool loop where tool_loop is set, and as before where it is not', () => {
    const base = { kind: 'openai', name: 'local', base_url: 'http://127.0.0.1:8000/v1', model: 'm' };
    expect(createAgent(parseAgentSpec(base), {})).toBeInstanceOf(OpenAIAgent);
    expect(createAgent(parseAgentSpec({ ...base, tool_loop: false }), {})).toBeInstanceOf(OpenAIAgent);
    const spec = parseAgentSpec({ ...base, tool_loop: true, max_turns: 20 });
    expect(spec).toMatchObject({ tool_loop: true, max_turns: 20 });
    expect(createAgent(spec, {})).toBeInstanceOf(OpenAIToolLoopAgent);
    expect(() => parseAgentSpec({ ...base, max_turns: 0 })).toThrow(/max_turns/);
  });

  it('needs Docker to confine its calls', async () => {
    const agent = createAgent(parseAgentSpec({ kind: 'openai', name: 'local', base_url: 'http://127.0.0.1:8000/v1', model: 'm', tool_loop: true }), {});
    await expect(agent.call(agentRequest())).rejects.toThrow(/no Docker to confine it/);
  });
});
