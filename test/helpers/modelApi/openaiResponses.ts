import type * as http from 'node:http';
import type { Reply, RequestView, Usage, WireProtocol } from './protocol';

/**
 * OpenAI's Responses API (POST /v1/responses, or /responses under any base path: Codex CLI's
 * protocol): a streamed reply as the real server sends it (response.created, response.in_progress,
 * response.output_item.added, the text's content_part / output_text deltas or a function call's
 * argument deltas, response.output_item.done, response.completed with the response's output and
 * usage) or one JSON response object, and errors as `{error: {message, type, param, code}}`.
 *
 * Codex offers its shell under a name that depends on the model and its version: `exec_command`
 * ({cmd: "..."}, unified exec, 0.171 for every model it offers direct tools to), `shell_command`
 * ({command: "..."}), `shell` or `container.exec` ({command: ["bash", "-lc", "..."]}), the built-in
 * `local_shell` (a local_shell_call item), or, for the "code mode" models (gpt-5.6 and gpt-6 in
 * 0.171), only a freeform `exec` tool taking JavaScript that calls `tools.exec_command(...)`; those
 * models' tools come in an `additional_tools` input item instead of `body.tools`.
 */

/** The shell tools the double knows, best first. */
const SHELL_TOOLS = ['exec_command', 'shell_command', 'shell', 'container.exec', 'local_shell', 'exec'] as const;

/** Items that carry a tool's result back to the model. */
const TOOL_OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output', 'local_shell_call_output', 'mcp_tool_call_output', 'tool_search_output']);

/** The error type and code OpenAI answers for each status (https://platform.openai.com/docs/guides/error-codes). */
const ERRORS: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: 'invalid_request_error', code: null, message: 'Invalid request (the model-API double).' },
  401: {
    type: 'invalid_request_error',
    code: 'invalid_api_key',
    message: 'Incorrect API key provided: sk-doub***. You can find your API key at https://platform.openai.com/account/api-keys.',
  },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory', message: 'Country, region, or territory not supported' },
  404: { type: 'invalid_request_error', code: 'model_not_found', message: 'The model does not exist or you do not have access to it.' },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests (the model-API double). Please try again in 1s.' },
  500: { type: 'server_error', code: null, message: 'The server had an error while processing your request. Sorry about that!' },
  503: { type: 'server_error', code: null, message: 'The engine is currently overloaded, please try again later' },
};

/** The body OpenAI answers an error with. */
export function openaiErrorBody(status: number): { error: { message: string; type: string; param: null; code: string | null } } {
  const known = ERRORS[status];
  const error = known ?? { type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null, message: `The model-API double answers ${status}.` };
  return { error: { message: error.message, type: error.type, param: null, code: error.code } };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((c) => c && typeof c === 'object' && typeof c.text === 'string' && (c.type === 'input_text' || c.type === 'text' || c.type === 'output_text'))
    .map((c) => c.text as string)
    .join('\n');
}

/** A tool's names as a request offers it: a function's or custom tool's name, a built-in's type, a namespace's tools inside it. */
function namesOf(tool: any, namespace: string | null, into: string[]): void {
  if (!tool || typeof tool !== 'object') return;
  if (tool.type === 'namespace' && Array.isArray(tool.tools)) {
    // Codex's default namespace is `functions`: its tools are called by their bare names.
    const inner = tool.name === 'functions' ? null : String(tool.name ?? '');
    for (const t of tool.tools) namesOf(t, inner, into);
    return;
  }
  const bare = typeof tool.name === 'string' && tool.name ? tool.name : typeof tool.type === 'string' ? tool.type : null;
  if (!bare) return;
  into.push(namespace ? `${namespace}.${bare}` : bare);
}

export function readResponses(body: any): RequestView {
  const input: any[] = Array.isArray(body?.input) ? body.input : typeof body?.input === 'string' ? [{ role: 'user', content: body.input }] : [];
  let lastUserText = '';
  let toolResultsSince = 0;
  for (let i = input.length - 1; i >= 0; i--) {
    const item = input[i];
    if (!item || typeof item !== 'object') continue;
    if (TOOL_OUTPUTS.has(item.type)) {
      toolResultsSince++;
      continue;
    }
    if (item.role === 'user' && (item.type === undefined || item.type === 'message')) {
      lastUserText = textOf(item.content);
      break;
    }
  }
  const toolNames: string[] = [];
  for (const t of Array.isArray(body?.tools) ? body.tools : []) namesOf(t, null, toolNames);
  // "Code mode" models: the tools come in an input item of their own.
  for (const item of input) {
    if (item?.type === 'additional_tools' && Array.isArray(item.tools)) for (const t of item.tools) namesOf(t, null, toolNames);
  }
  return { lastUserText, toolResultsSince, toolNames, model: typeof body?.model === 'string' ? body.model : '' };
}

let responseCount = 0;

type Item = { type: string; id: string; [key: string]: unknown };

/** The output item that runs `command` with the tool named `tool`, as the model emits it. */
export function shellCallItem(tool: string, command: string, callId: string, id: string): Item {
  switch (tool) {
    case 'exec_command':
      return { type: 'function_call', id, status: 'completed', call_id: callId, name: tool, arguments: JSON.stringify({ cmd: command }) };
    case 'shell_command':
      return { type: 'function_call', id, status: 'completed', call_id: callId, name: tool, arguments: JSON.stringify({ command }) };
    case 'local_shell':
      return { type: 'local_shell_call', id, status: 'completed', call_id: callId, action: { type: 'exec', command: ['bash', '-lc', command] } };
    case 'exec':
      // Code mode: a JavaScript program calling the nested shell tool, returning its output.
      return {
        type: 'custom_tool_call',
        id,
        status: 'completed',
        call_id: callId,
        name: tool,
        input: `const r = await tools.exec_command({ cmd: ${JSON.stringify(command)} });\ntext(typeof r === 'string' ? r : r.output);\n`,
      };
    default:
      // shell, container.exec: an argv.
      return { type: 'function_call', id, status: 'completed', call_id: callId, name: tool, arguments: JSON.stringify({ command: ['bash', '-lc', command] }) };
  }
}

function outputItem(reply: Reply, n: number): Item {
  if (reply.kind === 'text') {
    return { type: 'message', id: `msg_double_${n}`, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: reply.text, annotations: [], logprobs: [] }] };
  }
  return shellCallItem(reply.tool, reply.command, reply.callId, `fc_double_${n}`);
}

function usageOf(usage: Usage) {
  return {
    input_tokens: usage.input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.input + usage.output,
  };
}

function responseObject(id: string, body: any, status: string, output: Item[], usage: Usage | null) {
  return {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    error: null,
    incomplete_details: null,
    instructions: typeof body?.instructions === 'string' ? body.instructions : null,
    model: typeof body?.model === 'string' ? body.model : 'gpt-double',
    output,
    parallel_tool_calls: body?.parallel_tool_calls ?? true,
    previous_response_id: body?.previous_response_id ?? null,
    reasoning: body?.reasoning ?? null,
    store: body?.store ?? false,
    tool_choice: body?.tool_choice ?? 'auto',
    tools: Array.isArray(body?.tools) ? body.tools : [],
    usage: usage ? usageOf(usage) : null,
  };
}

/** Writes `text` in a few deltas, as the real stream does. */
function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length ? out : [''];
}

/** The SSE events of one streamed response, as OpenAI sends them. */
export function responseEvents(body: any, reply: Reply, usage: Usage): Array<{ type: string; [key: string]: unknown }> {
  const n = ++responseCount;
  const id = `resp_double_${n}`;
  const item = outputItem(reply, n);
  const events: Array<{ type: string; [key: string]: unknown }> = [];
  const push = (type: string, data: object) => events.push({ type, sequence_number: events.length, ...data });
  push('response.created', { response: responseObject(id, body, 'in_progress', [], null) });
  push('response.in_progress', { response: responseObject(id, body, 'in_progress', [], null) });
  const output_index = 0;
  if (item.type === 'message') {
    const text = (item.content as Array<{ text: string }>)[0].text;
    push('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
    const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
    push('response.content_part.added', { item_id: item.id, output_index, content_index: 0, part });
    for (const delta of pieces(text, 40)) push('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta, logprobs: [] });
    push('response.output_text.done', { item_id: item.id, output_index, content_index: 0, text, logprobs: [] });
    push('response.content_part.done', { item_id: item.id, output_index, content_index: 0, part: { ...part, text } });
  } else if (item.type === 'function_call') {
    const args = item.arguments as string;
    push('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
    for (const delta of pieces(args, 30)) push('response.function_call_arguments.delta', { item_id: item.id, output_index, delta });
    push('response.function_call_arguments.done', { item_id: item.id, output_index, name: item.name, arguments: args });
  } else if (item.type === 'custom_tool_call') {
    const input = item.input as string;
    push('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', input: '' } });
    for (const delta of pieces(input, 30)) push('response.custom_tool_call_input.delta', { item_id: item.id, output_index, delta });
    push('response.custom_tool_call_input.done', { item_id: item.id, output_index, input });
  } else {
    push('response.output_item.added', { output_index, item: { ...item, status: 'in_progress' } });
  }
  push('response.output_item.done', { output_index, item });
  push('response.completed', { response: responseObject(id, body, 'completed', [item], usage) });
  return events;
}

export const openaiResponses: WireProtocol = {
  name: 'openai-responses',

  matches: (method, path) => method === 'POST' && /\/responses$/.test(path),

  read: (body) => readResponses(body),

  shellTool: (toolNames) => SHELL_TOOLS.find((t) => toolNames.includes(t)) ?? null,

  respond: (res, body, _path, reply, usage) => {
    const events = responseEvents(body, reply, usage);
    const response = events[events.length - 1].response as { id: string };
    const headers = { 'x-request-id': `req_${response.id}`, 'openai-processing-ms': '1' };
    if (body?.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(response));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...headers });
    for (const event of events) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    res.end();
  },

  fail: (res, status) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': 'req_double_error' };
    if (status === 429) headers['retry-after'] = '1';
    res.writeHead(status, headers).end(JSON.stringify(openaiErrorBody(status)));
  },

  other: (req, res, path) => {
    // The model list (GET /v1/models, or /models under any base path), in OpenAI's shape.
    if (req.method === 'GET' && /\/models$/.test(path)) {
      const created = Math.floor(Date.now() / 1000);
      const data = ['gpt-5.5', 'gpt-5-codex', 'gpt-5'].map((id) => ({ id, object: 'model', created, owned_by: 'openai' }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data }));
      return true;
    }
    return false;
  },
};
