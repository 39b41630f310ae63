import { geminiGenerateContent, unpairedFunctionCalls } from '../../helpers/modelApi/gemini';
import { startModelApi, type ModelApiDouble } from '../../helpers/modelApi/server';
import type { ModelScript } from '../../helpers/modelApi/script';

/**
 * The double speaking Gemini's generateContent API, as Gemini CLI 0.61.0 calls it through
 * @google/genai: POST /v1beta/models/{model}:streamGenerateContent?alt=sse with the key in
 * x-goog-api-key; its shell tool is run_shell_command.
 */

const TOOLS = [
  {
    functionDeclarations: [
      { name: 'list_directory', description: 'Lists a folder', parametersJsonSchema: { type: 'object' } },
      { name: 'write_file', description: 'Writes a file', parametersJsonSchema: { type: 'object' } },
      { name: 'run_shell_command', description: 'Runs a shell command', parametersJsonSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } },
    ],
  },
];

/** The opening user message as Gemini CLI sends it: its session context, then the prompt, as text parts. */
function opening(prompt: string) {
  return {
    role: 'user',
    parts: [{ text: '<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\n</session_context>' }, { text: prompt }],
  };
}

function call(id: string, command: string) {
  return { role: 'model', parts: [{ functionCall: { id, name: 'run_shell_command', args: { command, description: 'Run' } }, thoughtSignature: 'skip_thought_signature_validator' }] };
}

function result(id: string) {
  return { role: 'user', parts: [{ functionResponse: { id, name: 'run_shell_command', response: { output: 'Output: (empty)' } } }] };
}

const GEN: ModelScript = {
  conversations: [
    { when: 'REPAIR', turns: [{ shell: 'echo fixed >> hello.py' }, { text: 'Repaired.' }] },
    { when: 'hello', turns: [{ shell: "printf 'print(1)\\n' > hello.py" }, { text: 'Wrote hello.py.' }] },
  ],
  usage: { input: 1234, output: 56 },
};

const STREAM = '/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse';
const GENERATE = '/v1beta/models/gemini-2.5-pro:generateContent';

async function post(api: ModelApiDouble, path: string, body: object) {
  return fetch(api.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': 'test-key' },
    body: JSON.stringify(body),
  });
}

async function json(res: Response): Promise<any> {
  return res.json();
}

/** The responses of an SSE stream (`data: {...}` blocks). */
function chunks(text: string): any[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim())
    .map((block) => JSON.parse(/^data: (.*)$/m.exec(block)![1]));
}

const NEXT_SPEAKER_SCHEMA = {
  type: 'object',
  properties: {
    reasoning: { type: 'string', description: 'Brief explanation' },
    next_speaker: { type: 'string', enum: ['user', 'model'] },
  },
  required: ['reasoning', 'next_speaker'],
};

describe('the model-API double speaking Gemini generateContent', () => {
  let api: ModelApiDouble;
  beforeEach(async () => {
    api = await startModelApi(GEN, [geminiGenerateContent]);
  });
  afterEach(() => api.close());

  it('streams a run_shell_command call as SSE with the scripted usage', async () => {
    const res = await post(api, STREAM, { contents: [opening('Write hello.py')], tools: TOOLS, generationConfig: { temperature: 1 } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const [response, ...rest] = chunks(await res.text());
    expect(rest).toEqual([]);
    expect(response.candidates).toEqual([
      {
        index: 0,
        finishReason: 'STOP',
        content: { role: 'model', parts: [{ functionCall: { name: 'run_shell_command', args: { command: "printf 'print(1)\\n' > hello.py", description: expect.any(String) } } }] },
      },
    ]);
    expect(response.usageMetadata).toEqual({ promptTokenCount: 1234, candidatesTokenCount: 56, totalTokenCount: 1290 });
    expect(response.modelVersion).toBe('gemini-2.5-pro');
    expect(api.sent).toEqual({ responses: 1, input: 1234, output: 56 });
    expect(api.received[0]).toMatchObject({ protocol: 'gemini-generate-content', path: STREAM, status: 200 });
    expect(api.received[0].headers['x-goog-api-key']).toBe('[credential]');
    expect(api.received[0].view).toEqual({
      lastUserText: expect.stringContaining('Write hello.py'),
      toolResultsSince: 0,
      toolNames: ['list_directory', 'write_file', 'run_shell_command'],
      model: 'gemini-2.5-pro',
    });
  });

  it('answers the turn after a function response with text, as one JSON response where no stream is asked', async () => {
    const contents = [opening('Write hello.py'), call('c1', 'printf x > hello.py'), result('c1')];
    const res = await post(api, GENERATE, { contents, tools: TOOLS });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await json(res);
    expect(body.candidates[0]).toMatchObject({ finishReason: 'STOP', content: { role: 'model', parts: [{ text: 'Wrote hello.py.' }] } });
    expect(body.usageMetadata).toMatchObject({ promptTokenCount: 1234, candidatesTokenCount: 56 });
    expect(api.received[0].view).toMatchObject({ toolResultsSince: 1 });
  });

  it('takes the latest prompt of a resumed session, and counts only the function responses after it', async () => {
    const contents = [opening('Write hello.py'), call('c1', 'printf x > hello.py'), result('c1'), { role: 'model', parts: [{ text: 'Wrote hello.py.' }] }, { role: 'user', parts: [{ text: 'REPAIR hello.py' }] }];
    const first = await (await post(api, STREAM, { contents, tools: TOOLS })).text();
    expect(chunks(first)[0].candidates[0].content.parts[0].functionCall.args.command).toBe('echo fixed >> hello.py');
    expect(api.received[0].view).toMatchObject({ lastUserText: 'REPAIR hello.py', toolResultsSince: 0 });

    const later = [...contents, call('c2', 'echo fixed >> hello.py'), result('c2')];
    const second = await (await post(api, STREAM, { contents: later, tools: TOOLS })).text();
    expect(chunks(second)[0].candidates[0].content.parts).toEqual([{ text: 'Repaired.' }]);
    expect(api.received[1].view).toMatchObject({ lastUserText: 'REPAIR hello.py', toolResultsSince: 1 });
  });

  it('tells a request whose function calls and responses do not pair up, as the Gemini API rejects it', () => {
    const paired = [opening('Write hello.py'), call('c1', 'echo'), result('c1'), { role: 'model', parts: [{ text: 'Done.' }] }, { role: 'user', parts: [{ text: 'REPAIR' }] }];
    expect(unpairedFunctionCalls({ contents: paired })).toBe(false);
    // What Gemini CLI 0.61 sends on resume (google-gemini/gemini-cli#29365): one call, its result twice.
    const twice = [opening('Write hello.py'), call('c1', 'echo'), { role: 'user', parts: [...result('c1').parts, ...result('c1').parts] }, { role: 'user', parts: [{ text: 'REPAIR' }] }];
    expect(unpairedFunctionCalls({ contents: twice })).toBe(true);
    // A call not answered yet ends the history: nothing to pair.
    expect(unpairedFunctionCalls({ contents: [opening('x'), call('c1', 'echo')] })).toBe(false);
    expect(unpairedFunctionCalls({})).toBe(false);
  });

  it('is the protocol that serves Gemini paths among all the double speaks', async () => {
    const all = await startModelApi(GEN);
    try {
      const res = await post(all, STREAM, { contents: [opening('Write hello.py')], tools: TOOLS });
      expect(chunks(await res.text())[0].candidates[0].content.parts[0].functionCall.name).toBe('run_shell_command');
      expect(all.received[0].protocol).toBe('gemini-generate-content');
    } finally {
      await all.close();
    }
  });

  it('serves a base URL with a path of its own', async () => {
    const res = await post(api, '/relay/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', { contents: [opening('Write hello.py')], tools: TOOLS });
    expect(res.status).toBe(200);
    expect(api.received[0].view?.model).toBe('gemini-2.5-flash');
  });

  it('answers the next-speaker check with the user as next speaker, in JSON, without counting it', async () => {
    const body = {
      contents: [opening('Write hello.py'), { role: 'model', parts: [{ text: 'Done.' }] }, { role: 'user', parts: [{ text: 'Analyze *only* the content...' }] }],
      generationConfig: { responseJsonSchema: NEXT_SPEAKER_SCHEMA, responseMimeType: 'application/json' },
    };
    const res = await post(api, GENERATE, body);
    const text = (await json(res)).candidates[0].content.parts[0].text;
    expect(JSON.parse(text)).toEqual({ reasoning: expect.any(String), next_speaker: 'user' });
    expect(api.sent).toEqual({ responses: 0, input: 0, output: 0 });
  });

  it('answers the loop check, the model routers and the session title as Gemini CLI reads them', async () => {
    const aux = async (generationConfig: object, prompt = 'check') =>
      (await json(await post(api, GENERATE, { contents: [{ role: 'user', parts: [{ text: prompt }] }], generationConfig }))).candidates[0].content.parts[0].text;
    const loop = {
      type: 'object',
      properties: { unproductive_state_analysis: { type: 'string' }, unproductive_state_confidence: { type: 'number' } },
      required: ['unproductive_state_analysis', 'unproductive_state_confidence'],
    };
    expect(JSON.parse(await aux({ responseJsonSchema: loop }))).toEqual({ unproductive_state_analysis: expect.any(String), unproductive_state_confidence: 0 });
    const router = { type: 'OBJECT', properties: { reasoning: { type: 'STRING' }, model_choice: { type: 'STRING', enum: ['flash', 'pro'] } } };
    expect(JSON.parse(await aux({ responseJsonSchema: router }))).toEqual({ reasoning: expect.any(String), model_choice: 'pro' });
    const score = { type: 'OBJECT', properties: { complexity_reasoning: { type: 'STRING' }, complexity_score: { type: 'INTEGER' } } };
    expect(JSON.parse(await aux({ responseSchema: score }))).toEqual({ complexity_reasoning: expect.any(String), complexity_score: 50 });
    expect(await aux({}, "Summarize the user's primary intent or goal in this conversation in ONE sentence")).toBe('Scripted session');
    expect(await aux({}, 'anything else')).toBe('OK');
    expect(api.sent.responses).toBe(0);
  });

  it.each([
    [400, 'INVALID_ARGUMENT', /input token count .* exceeds the maximum/],
    [401, 'UNAUTHENTICATED', /API key not valid/],
    [403, 'PERMISSION_DENIED', /permission/],
    [429, 'RESOURCE_EXHAUSTED', /exhausted/],
    [500, 'INTERNAL', /internal error/],
  ])('fails with %i in Google\'s error shape', async (status, name, message) => {
    api.script({ conversations: [{ turns: [{ fail: status }] }] });
    const res = await post(api, STREAM, { contents: [opening('Write hello.py')], tools: TOOLS });
    expect(res.status).toBe(status);
    const body = await json(res);
    expect(body).toEqual({ error: { code: status, message: expect.stringMatching(message), status: name } });
    expect(api.received[0].status).toBe(status);
    expect(api.sent.responses).toBe(0);
  });

  it('keeps a hung request open until the double closes', async () => {
    api.script({ conversations: [{ turns: [{ hang: true }] }] });
    const answered = post(api, STREAM, { contents: [opening('Write hello.py')], tools: TOOLS }).then(
      () => 'answered',
      () => 'closed',
    );
    const early = await Promise.race([answered, new Promise((r) => setTimeout(() => r('open'), 300))]);
    expect(early).toBe('open');
    await api.close();
    expect(await answered).toBe('closed');
    expect(api.received[0].status).toBe(0);
    api = await startModelApi(GEN, [geminiGenerateContent]);
  });

  it('counts tokens and lists models', async () => {
    const count = await post(api, '/v1beta/models/gemini-2.5-pro:countTokens', { contents: [opening('Write hello.py')] });
    expect(count.status).toBe(200);
    expect((await json(count)).totalTokens).toBeGreaterThan(0);
    const models = await json(await fetch(`${api.url}/v1beta/models`));
    expect(models.models.map((m: any) => m.name)).toContain('models/gemini-2.5-pro');
    const one = await json(await fetch(`${api.url}/v1beta/models/gemini-2.5-flash`));
    expect(one).toMatchObject({ name: 'models/gemini-2.5-flash', inputTokenLimit: expect.any(Number) });
    expect(api.sent.responses).toBe(0);
    expect((await fetch(`${api.url}/v1beta/files`)).status).toBe(404);
  });
});
