import type * as http from 'node:http';
import type { Reply, RequestView, Usage, WireProtocol } from './protocol';

/**
 * Anthropic's Messages API (POST /v1/messages, Claude Code's protocol; it adds `?beta=true`): a
 * streamed reply as the real server sends it (message_start, content_block_start/delta/stop, with
 * input_json_delta for a tool_use block, message_delta with stop_reason and usage, message_stop) or
 * one JSON message, and errors as `{type: 'error', error: {type, message}}`.
 */

/** The error type Anthropic answers for each status (https://docs.anthropic.com/en/api/errors). */
const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

const ERROR_MESSAGES: Record<string, string> = {
  // The 400 an agent meets most: its conversation outgrew the model's context window.
  invalid_request_error: 'prompt is too long: 200001 tokens > 200000 maximum',
  authentication_error: 'invalid x-api-key',
  rate_limit_error: 'Number of request tokens has exceeded your per-minute rate limit (the model-API double).',
  api_error: 'Internal server error',
  overloaded_error: 'Overloaded',
};

export function anthropicErrorType(status: number): string {
  return ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/** The body Anthropic answers an error with. */
export function anthropicErrorBody(status: number): { type: 'error'; error: { type: string; message: string } } {
  const type = anthropicErrorType(status);
  return { type: 'error', error: { type, message: ERROR_MESSAGES[type] ?? `The model-API double answers ${status}.` } };
}

type Block = { type: string; [key: string]: unknown };

function blocksOf(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content.filter((b) => b && typeof b === 'object') as Block[]) : [];
}

/**
 * The view of a request: the prompt is the latest user message with no tool_result block, and the turn
 * is the number of tool_result blocks after it. A user message that carries tool results counts as
 * tool results even where text blocks ride beside them (Claude Code can put a system reminder there).
 */
export function readAnthropic(body: any): RequestView {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  let lastUserText = '';
  let toolResultsSince = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'user') continue;
    const blocks = blocksOf(m.content);
    const results = blocks.filter((b) => b.type === 'tool_result').length;
    if (results > 0) {
      toolResultsSince += results;
      continue;
    }
    lastUserText = blocks
      .filter((b) => b.type === 'text' && typeof b.text === 'string')
      .map((b) => b.text as string)
      .join('\n');
    break;
  }
  const toolNames: string[] = Array.isArray(body?.tools) ? body.tools.map((t: any) => t?.name).filter((n: unknown) => typeof n === 'string') : [];
  return { lastUserText, toolResultsSince, toolNames, model: typeof body?.model === 'string' ? body.model : '' };
}

/**
 * Ids unique across doubles and test runs: Claude Code keeps a session's ids in its transcript and
 * takes a resumed session's new tool_use whose id it has seen before for an interrupted one.
 */
const RUN = `${Date.now().toString(36)}${process.pid.toString(36)}`;
let messageCount = 0;
let toolUseCount = 0;

function contentOf(reply: Reply): Block[] {
  if (reply.kind === 'text') return [{ type: 'text', text: reply.text }];
  const id = `toolu_${RUN}${++toolUseCount}${reply.callId.replace(/[^A-Za-z0-9]/g, '')}`;
  return [{ type: 'tool_use', id, name: reply.tool, input: { command: reply.command, description: 'Run the command' } }];
}

function usageOf(usage: Usage) {
  return { input_tokens: usage.input, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: usage.output };
}

function sse(res: http.ServerResponse, event: string, data: object): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
}

/** Writes `text` in a few deltas, as the real stream does. */
function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length ? out : [''];
}

export const anthropicMessages: WireProtocol = {
  name: 'anthropic-messages',

  matches: (method, path) => method === 'POST' && /\/v1\/messages$/.test(path),

  read: (body) => readAnthropic(body),

  shellTool: (toolNames) => (toolNames.includes('Bash') ? 'Bash' : null),

  respond: (res, body, _path, reply, usage) => {
    const id = `msg_${RUN}${++messageCount}`;
    const model = typeof body?.model === 'string' ? body.model : 'claude-double';
    const content = contentOf(reply);
    const stopReason = reply.kind === 'shell' ? 'tool_use' : 'end_turn';
    if (!body?.stream) {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${id}` });
      res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model, content, stop_reason: stopReason, stop_sequence: null, usage: usageOf(usage) }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_${id}` });
    sse(res, 'message_start', {
      message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usageOf(usage), output_tokens: 0 } },
    });
    sse(res, 'ping', {});
    content.forEach((block, index) => {
      if (block.type === 'text') {
        sse(res, 'content_block_start', { index, content_block: { type: 'text', text: '' } });
        for (const text of pieces(block.text as string, 40)) sse(res, 'content_block_delta', { index, delta: { type: 'text_delta', text } });
      } else {
        sse(res, 'content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
        for (const partial_json of pieces(JSON.stringify(block.input), 30)) sse(res, 'content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } });
      }
      sse(res, 'content_block_stop', { index });
    });
    sse(res, 'message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: usageOf(usage) });
    sse(res, 'message_stop', {});
    res.end();
  },

  fail: (res, status) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_double_error' }).end(JSON.stringify(anthropicErrorBody(status)));
  },

  other: (req, res, path, body) => {
    if (req.method === 'POST' && /\/v1\/messages\/count_tokens$/.test(path)) {
      // A rough count, as a check of the request's size: 4 characters a token.
      const size = JSON.stringify({ system: body?.system ?? null, messages: body?.messages ?? [], tools: body?.tools ?? [] }).length;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: Math.ceil(size / 4) }));
      return true;
    }
    if (/\/api\/hello$/.test(path)) {
      // Claude Code's reachability check of the base URL (skipped with nonessential traffic off).
      res.writeHead(200, { 'content-type': 'text/plain' }).end(req.method === 'HEAD' ? undefined : 'hello');
      return true;
    }
    return false;
  },
};
