import type { Reply, RequestView, WireProtocol } from './protocol';

/**
 * OpenAI Chat Completions (POST .../chat/completions), as Qwen Code, opencode (through
 * @ai-sdk/openai-compatible) and other OpenAI-compatible clients speak it: streamed as
 * `chat.completion.chunk` server-sent events ending in `data: [DONE]` (with a usage chunk where
 * stream_options.include_usage asks for one), or one `chat.completion` object.
 */

/** The shell tools of the CLIs that speak this protocol, most specific first. */
const SHELL_TOOLS = ['run_shell_command', 'bash', 'shell', 'Bash', 'execute_command', 'run_command'];

/** Error bodies as OpenAI words them (https://platform.openai.com/docs/guides/error-codes). */
const ERRORS: Record<number, { message: string; type: string; code: string | null }> = {
  400: { message: 'Invalid request.', type: 'invalid_request_error', code: null },
  401: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { message: 'You are not allowed to sample from this model.', type: 'invalid_request_error', code: null },
  404: { message: 'The model does not exist or you do not have access to it.', type: 'invalid_request_error', code: 'model_not_found' },
  429: { message: 'Rate limit reached for requests. Please try again later.', type: 'requests', code: 'rate_limit_exceeded' },
  500: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', code: null },
  503: { message: 'The engine is currently overloaded, please try again later.', type: 'server_error', code: null },
};

type Message = { role?: string; content?: unknown; tool_call_id?: string };

export const openaiChat: WireProtocol = {
  name: 'openai-chat',

  matches(method, path) {
    return method === 'POST' && path.endsWith('/chat/completions');
  },

  read(body): RequestView {
    const messages: Message[] = Array.isArray(body?.messages) ? body.messages : [];
    let last = -1;
    for (let i = messages.length - 1; i >= 0; i--) {
      if (messages[i]?.role === 'user') {
        last = i;
        break;
      }
    }
    const tools: any[] = Array.isArray(body?.tools) ? body.tools : [];
    return {
      lastUserText: last >= 0 ? textOf(messages[last].content) : '',
      toolResultsSince: messages.slice(last + 1).filter((m) => m?.role === 'tool').length,
      toolNames: tools.map((t) => t?.function?.name ?? t?.name).filter((n): n is string => typeof n === 'string'),
      model: typeof body?.model === 'string' ? body.model : '',
    };
  },

  shellTool(toolNames) {
    return SHELL_TOOLS.find((name) => toolNames.includes(name)) ?? null;
  },

  respond(res, body, _path, reply, usage) {
    const id = `chatcmpl-double${Date.now().toString(36)}`;
    const created = Math.floor(Date.now() / 1000);
    const model = typeof body?.model === 'string' ? body.model : 'double';
    const toolCall =
      reply.kind === 'shell'
        ? { id: reply.callId, type: 'function' as const, function: { name: reply.tool, arguments: JSON.stringify(shellArguments(body, reply)) } }
        : null;
    const finish = toolCall ? 'tool_calls' : 'stop';
    const counts = { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output };

    if (body?.stream !== true) {
      const message = toolCall ? { role: 'assistant', content: null, tool_calls: [toolCall] } : { role: 'assistant', content: reply.kind === 'text' ? reply.text : '' };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message, logprobs: null, finish_reason: finish }], usage: counts }));
      return;
    }

    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`;
    const events: string[] = [chunk([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }])];
    if (toolCall) {
      events.push(chunk([{ index: 0, delta: { tool_calls: [{ index: 0, ...toolCall }] }, logprobs: null, finish_reason: null }]));
    } else if (reply.kind === 'text') {
      events.push(chunk([{ index: 0, delta: { content: reply.text }, logprobs: null, finish_reason: null }]));
    }
    events.push(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: finish }]));
    if (body?.stream_options?.include_usage === true) events.push(chunk([], { usage: counts }));
    events.push('data: [DONE]\n\n');
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.end(events.join(''));
  },

  fail(res, status) {
    const error = ERRORS[status] ?? { message: `The double answered ${status}.`, type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null };
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: error.message, type: error.type, param: null, code: error.code } }));
  },

  other(req, res, path) {
    // The model list (GET /v1/models, or .../models under a compatible-mode prefix); not Gemini's /v1beta.
    if (req.method !== 'GET' || !/\/models$/.test(path) || path.includes('/v1beta')) return false;
    const data = ['qwen3-coder-plus', 'gpt-4o', 'gpt-4o-mini'].map((id) => ({ id, object: 'model', created: 1700000000, owned_by: 'envgap-double' }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data }));
    return true;
  },
};

/** The text of a message's content: a string, or the text parts of an array of parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (typeof part === 'string' ? part : part?.type === 'text' && typeof part.text === 'string' ? part.text : ''))
      .filter((t) => t !== '')
      .join('\n');
  }
  return '';
}

/**
 * The arguments of a shell call: `command`, plus whatever else the offered tool's schema requires
 * (opencode's bash wants a `description`; Qwen Code's run_shell_command an `is_background`).
 */
function shellArguments(body: any, reply: Extract<Reply, { kind: 'shell' }>): Record<string, unknown> {
  const args: Record<string, unknown> = { command: reply.command };
  const tools: any[] = Array.isArray(body?.tools) ? body.tools : [];
  const schema = tools.find((t) => (t?.function?.name ?? t?.name) === reply.tool)?.function?.parameters;
  const required: unknown[] = Array.isArray(schema?.required) ? schema.required : [];
  for (const name of required) {
    if (typeof name !== 'string' || name in args) continue;
    const type = schema?.properties?.[name]?.type;
    if (type === 'boolean') args[name] = false;
    else if (type === 'number' || type === 'integer') args[name] = 120000;
    else args[name] = 'Run the scripted command';
  }
  return args;
}
