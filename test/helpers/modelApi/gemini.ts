import type * as http from 'node:http';
import type { Reply, RequestView, Usage, WireProtocol } from './protocol';

/**
 * Gemini's generateContent API (the Gemini Developer API, v1beta), as Gemini CLI speaks it through
 * @google/genai: POST {base}/v1beta/models/{model}:generateContent, and :streamGenerateContent?alt=sse
 * answered as server-sent events (`data: {GenerateContentResponse}` blocks). The shell tool is Gemini
 * CLI's run_shell_command ({command, description?}).
 */

/** `.../models/{model}:{method}` (any prefix: a base URL may carry a path). */
const MODEL_METHOD = /\/models\/([^/:]+):([A-Za-z]+)$/;
const GENERATE = new Set(['generateContent', 'streamGenerateContent']);

function modelMethod(path: string): { model: string; method: string } | null {
  const m = MODEL_METHOD.exec(path);
  return m ? { model: decodeURIComponent(m[1]), method: m[2] } : null;
}

type Part = { text?: string; thought?: boolean; functionCall?: unknown; functionResponse?: unknown };
type Content = { role?: string; parts?: Part[] };

function partsOf(content: Content): Part[] {
  return Array.isArray(content?.parts) ? content.parts : [];
}

function isUserPrompt(content: Content): boolean {
  const parts = partsOf(content);
  return (content?.role ?? 'user') === 'user' && parts.some((p) => typeof p.text === 'string') && !parts.some((p) => p.functionResponse);
}

function textOf(content: Content): string {
  return partsOf(content)
    .filter((p) => typeof p.text === 'string' && !p.thought)
    .map((p) => p.text)
    .join('\n');
}

/** The names of the function declarations offered ([] where none). */
function toolNamesOf(body: any): string[] {
  const tools: any[] = Array.isArray(body?.tools) ? body.tools : [];
  return tools.flatMap((t) => (Array.isArray(t?.functionDeclarations) ? t.functionDeclarations.map((f: any) => String(f?.name)) : []));
}

/** A value that satisfies a (simple) JSON schema, for an aux call that asks for JSON. */
function fill(schema: any, key = ''): unknown {
  if (!schema || typeof schema !== 'object') return null;
  const type = String(schema.type ?? (schema.properties ? 'object' : 'string')).toLowerCase();
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries<any>(schema.properties ?? {})) out[name] = fill(sub, name);
      return out;
    }
    case 'array':
      return [];
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    default:
      return /reason|analysis|explanation/i.test(key) ? 'Scripted by the model-API double.' : '';
  }
}

/** Answers to the JSON aux calls Gemini CLI makes, by the fields their response schema asks for. */
function jsonAux(schema: any): unknown {
  const value = fill(schema);
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out = value as Record<string, unknown>;
  // The next-speaker check: the user speaks next (the model's turn is over).
  if ('next_speaker' in out) out.next_speaker = 'user';
  // Loop detection: not looping.
  if ('unproductive_state_confidence' in out) out.unproductive_state_confidence = 0;
  // The model router (model "auto"): the pro model; the numerical router: a middling score.
  const choices: unknown[] | undefined = schema?.properties?.model_choice?.enum;
  if ('model_choice' in out && Array.isArray(choices)) out.model_choice = choices.find((c) => /pro/i.test(String(c))) ?? choices[0];
  if ('complexity_score' in out) out.complexity_score = 50;
  return out;
}

function systemText(body: any): string {
  const si = body?.systemInstruction;
  if (!si) return '';
  if (typeof si === 'string') return si;
  return textOf(si as Content);
}

function functionCallPart(reply: Extract<Reply, { kind: 'shell' }>) {
  return { functionCall: { name: reply.tool, args: { command: reply.command, description: 'Runs the scripted command.' } } };
}

function responseObject(model: string, reply: Reply, usage: Usage) {
  const parts = reply.kind === 'shell' ? [functionCallPart(reply)] : [{ text: reply.text }];
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: {
      promptTokenCount: usage.input,
      candidatesTokenCount: usage.output,
      totalTokenCount: usage.input + usage.output,
    },
    modelVersion: model,
    responseId: `resp_${Math.random().toString(36).slice(2, 12)}`,
  };
}

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

const MESSAGE: Record<number, string> = {
  // The 400 an agent meets most: its conversation outgrew the model's context window.
  400: 'The input token count (1048577) exceeds the maximum number of tokens allowed (1048576).',
  401: 'API key not valid. Please pass a valid API key.',
  403: 'The caller does not have permission',
  429: 'Resource has been exhausted (e.g. check quota).',
  500: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  503: 'The model is overloaded. Please try again later.',
};

/** An error body in Google's shape ({error: {code, message, status}}). */
export function geminiError(status: number) {
  return {
    error: {
      code: status,
      message: MESSAGE[status] ?? `The double was scripted to fail with ${status}.`,
      status: STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION'),
    },
  };
}

/** The Gemini API's words for a request whose function calls and responses do not pair up. */
export const UNPAIRED_MESSAGE = 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';

/**
 * Whether a request breaks the Gemini API's pairing rule: each model turn with function calls is
 * followed by a turn with as many function responses (the API answers 400 INVALID_ARGUMENT otherwise,
 * as Gemini CLI 0.61's resume meets: google-gemini/gemini-cli#29365). The double itself answers such
 * a request as any other; tests check their requests with this.
 */
export function unpairedFunctionCalls(body: any): boolean {
  const contents: Content[] = Array.isArray(body?.contents) ? body.contents : [];
  return contents.some((content, i) => {
    const calls = partsOf(content).filter((p) => p.functionCall).length;
    if (content?.role !== 'model' || calls === 0 || i + 1 >= contents.length) return false;
    return partsOf(contents[i + 1]).filter((p) => p.functionResponse).length !== calls;
  });
}

function json(res: http.ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(value));
}

export const geminiGenerateContent: WireProtocol = {
  name: 'gemini-generate-content',

  matches(method, path) {
    const mm = modelMethod(path);
    return method === 'POST' && mm !== null && GENERATE.has(mm.method);
  },

  read(body, path): RequestView {
    const contents: Content[] = Array.isArray(body?.contents) ? body.contents : [];
    let last = -1;
    for (let i = contents.length - 1; i >= 0; i--) {
      if (isUserPrompt(contents[i])) {
        last = i;
        break;
      }
    }
    const toolResultsSince = contents
      .slice(last + 1)
      .reduce((n, c) => n + partsOf(c).filter((p) => p.functionResponse).length, 0);
    return {
      lastUserText: last >= 0 ? textOf(contents[last]) : '',
      toolResultsSince,
      toolNames: toolNamesOf(body),
      model: modelMethod(path)?.model ?? '',
    };
  },

  shellTool(toolNames) {
    return toolNames.includes('run_shell_command') ? 'run_shell_command' : null;
  },

  auxReply(body) {
    const config = body?.generationConfig ?? {};
    const schema = config.responseJsonSchema ?? config.responseSchema;
    if (schema || config.responseMimeType === 'application/json') {
      return { kind: 'text', text: JSON.stringify(schema ? jsonAux(schema) : {}) };
    }
    const contents: Content[] = Array.isArray(body?.contents) ? body.contents : [];
    const prompt = contents.map(textOf).join('\n');
    // The session title (SessionSummaryService): one short line.
    if (/Summarize the user's primary intent/i.test(prompt)) return { kind: 'text', text: 'Scripted session' };
    // History compression: a state snapshot in the shape the CLI asks for.
    if (/state_snapshot/.test(systemText(body) + prompt)) {
      return { kind: 'text', text: '<state_snapshot>\n<overall_goal>The scripted task.</overall_goal>\n</state_snapshot>' };
    }
    return null;
  },

  respond(res, body, path, reply, usage) {
    const mm = modelMethod(path);
    const model = mm?.model ?? 'gemini';
    const response = responseObject(model, reply, usage);
    if (mm?.method === 'streamGenerateContent') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(`data: ${JSON.stringify(response)}\r\n\r\n`);
      return;
    }
    json(res, 200, response);
  },

  fail(res, status) {
    json(res, status, geminiError(status));
  },

  other(req, res, path, body) {
    const mm = modelMethod(path);
    if (req.method === 'POST' && mm?.method === 'countTokens') {
      const size = JSON.stringify(body ?? {}).length;
      json(res, 200, { totalTokens: Math.max(1, Math.ceil(size / 4)) });
      return true;
    }
    if (req.method === 'POST' && mm && /^(embedContent|batchEmbedContents)$/.test(mm.method)) {
      const one = { values: [0, 0, 0, 0] };
      json(res, 200, mm.method === 'embedContent' ? { embedding: one } : { embeddings: (body?.requests ?? [null]).map(() => one) });
      return true;
    }
    // The model list and one model's metadata (GET .../v1beta/models[/{model}]).
    const listed = /\/v1(beta|alpha)?\/models(\/([^/:]+))?$/.exec(path);
    if (req.method === 'GET' && listed) {
      const info = (name: string) => ({
        name: `models/${name}`,
        displayName: name,
        inputTokenLimit: 1048576,
        outputTokenLimit: 65536,
        supportedGenerationMethods: ['generateContent', 'countTokens'],
      });
      json(res, 200, listed[3] ? info(decodeURIComponent(listed[3])) : { models: ['gemini-2.5-pro', 'gemini-2.5-flash'].map(info) });
      return true;
    }
    return false;
  },
};
