import * as path from 'node:path';
import { z } from 'zod';
import type { OpenAISpec } from '../domain/agentSpec';
import { fileContent, type ProjectFiles } from '../domain/files';
import { BASH_DEFAULT_TIMEOUT_S, capToolOutput, TOOL_OUTPUT_CAP, toolArguments } from '../readiness/toolLoop';
import type { Sandbox } from '../sandbox';
import { ContainerGoneError } from '../sandbox/errors';
import { excerpt } from '../text/excerpt';
import { describeIssues } from '../text/zodIssues';
import type { ChatMessage } from './chatRequest';
import { AGENT_WORKSPACE, withAgentSandbox, type Confinement } from './confined/agentSandbox';
import { readWorkspace, type WorkspaceFiles } from './confined/workspaceFiles';
import { knownSecrets, redactError, redactSecrets, type KnownSecret } from './secrets';
import { tail } from './tail';
import { AgentAbortedError, AgentCallFailedError, AgentInputError, ModelEndpointError, type Agent, type AgentRequest, type AgentResponse, type SpentOnFailure } from './types';

import { DEFAULT_MAX_TURNS } from '../domain/toolLoopTurns';

export { DEFAULT_MAX_TURNS };
/** Waits before the second and third try of a request the endpoint could not answer (429, 5xx, unreachable). */
export const RETRY_DELAYS_MS: readonly number[] = [2_000, 8_000];

const TRANSCRIPT_CHARS = 20_000;
const BODY_TAIL_CHARS = 2_000;

/** The tools of the gap protocol's tool loop: the readiness loop's, working in the project's folder. */
export const GAP_TOOLS = [
  {
    type: 'function',
    function: {
      name: 'bash',
      description: `Run a bash command in the container, in ${AGENT_WORKSPACE}. Output (stdout and stderr) is capped at ${TOOL_OUTPUT_CAP} bytes; the time limit is timeout_s (default ${BASH_DEFAULT_TIMEOUT_S}, never past the call's own limit).`,
      parameters: { type: 'object', properties: { command: { type: 'string' }, timeout_s: { type: 'number' } }, required: ['command'], additionalProperties: false },
    },
  },
  {
    type: 'function',
    function: {
      name: 'read_file',
      description: `Read a file of the container (absolute, or relative to ${AGENT_WORKSPACE}); at most ${TOOL_OUTPUT_CAP} bytes are returned.`,
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
    },
  },
  {
    type: 'function',
    function: {
      name: 'write_file',
      description: `Write a file in the container (absolute, or relative to ${AGENT_WORKSPACE}), replacing it; its folders are created.`,
      parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'], additionalProperties: false },
    },
  },
  {
    type: 'function',
    function: {
      name: 'finish',
      description: `End this call: the files in ${AGENT_WORKSPACE} are your project as it stands now.`,
      parameters: { type: 'object', properties: { summary: { type: 'string' } }, required: [], additionalProperties: false },
    },
  },
] as const;

/** The system message of the gap tool loop; the conversation holds it once, however many calls continue it. */
export const GAP_TOOL_LOOP_SYSTEM = `You are a coding agent. You work in a Linux container with the language's runtime, through the tools bash, read_file and write_file, one call at a time or several.
- Your project is the set of files in ${AGENT_WORKSPACE}: the source code, the dependency manifest and README.md. Whatever you leave there is your answer; nothing else is.
- You may install packages and run your project to try it. Each request starts in a fresh container with only your project's files in ${AGENT_WORKSPACE}: what you install elsewhere (and virtual environments, caches, build outputs) is not kept.
- Call finish when the project is complete.`;

export type GapToolCall =
  | { name: 'bash'; command: string; timeoutS: number }
  | { name: 'read_file'; path: string }
  | { name: 'write_file'; path: string; content: string }
  | { name: 'finish'; summary: string | null };

const Args = {
  bash: z.object({ command: z.string().min(1), timeout_s: z.number().positive().optional() }),
  read_file: z.object({ path: z.string().min(1) }),
  write_file: z.object({ path: z.string().min(1), content: z.string() }),
  finish: z.object({ summary: z.string().optional() }),
};

/** A model's tool call, checked; a bad one is told back to the model (its mistake, not the harness's). */
export function parseGapToolCall(name: string, argumentsJson: string, maxTimeoutS: number): { call: GapToolCall } | { problem: string } {
  const checked = toolArguments(Args, name, argumentsJson);
  if ('problem' in checked) return checked;
  const a = checked.args;
  const max = Math.max(1, Math.floor(maxTimeoutS));
  if (name === 'bash') return { call: { name, command: a.command as string, timeoutS: Math.max(1, Math.min(Math.ceil((a.timeout_s as number | undefined) ?? BASH_DEFAULT_TIMEOUT_S), max)) } };
  if (name === 'read_file') return { call: { name, path: workspacePath(a.path as string) } };
  if (name === 'write_file') return { call: { name, path: workspacePath(a.path as string), content: a.content as string } };
  return { call: { name: 'finish', summary: (a.summary as string | undefined) ?? null } };
}

/** A path of a tool call: absolute as given, else relative to the workspace. */
export function workspacePath(p: string): string {
  return path.posix.resolve(AGENT_WORKSPACE, p);
}

const StoredMessage = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string().nullable(),
  tool_calls: z.array(z.object({ id: z.string(), type: z.literal('function'), function: z.object({ name: z.string(), arguments: z.string() }) })).optional(),
  tool_call_id: z.string().optional(),
});
const StoredConversation = z.array(StoredMessage);

/** The conversation as the call's `session`: its messages as JSON. */
export function encodeSession(messages: readonly ChatMessage[]): Buffer {
  return Buffer.from(JSON.stringify(messages), 'utf8');
}

/**
 * The messages a call starts with: the previous call's conversation (its `session`) with the prompt as
 * a new user message, so a Repair sees Gen's turns; a fresh one (the system message, the prompt) where
 * there is none, or where it cannot be read (`note` says why). The system message is there once.
 */
export function startConversation(session: Buffer | null | undefined, prompt: string): { messages: ChatMessage[]; note: string | null } {
  const fresh = (): ChatMessage[] => [{ role: 'system', content: GAP_TOOL_LOOP_SYSTEM }, { role: 'user', content: prompt }];
  if (!session || session.length === 0) return { messages: fresh(), note: null };
  let value: unknown;
  try {
    value = JSON.parse(session.toString('utf8'));
  } catch (e) {
    return { messages: fresh(), note: `the previous session is not JSON (${(e as Error).message}); a new conversation` };
  }
  const parsed = StoredConversation.safeParse(value);
  if (!parsed.success) return { messages: fresh(), note: `the previous session is not a conversation (${describeIssues(parsed.error).slice(0, 3).join('; ')}); a new conversation` };
  const messages: ChatMessage[] = parsed.data.filter((m) => m.role !== 'system');
  const system = parsed.data.find((m) => m.role === 'system') ?? { role: 'system', content: GAP_TOOL_LOOP_SYSTEM };
  closeOpenCalls(messages, 'not run: the call ended first');
  return { messages: [system, ...messages, { role: 'user', content: prompt }], note: null };
}

/** Every tool call of the last assistant message that has no result yet gets one (`note`), so the conversation can be continued. */
export function closeOpenCalls(messages: ChatMessage[], note: string): void {
  let at = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === 'assistant') {
      at = i;
      break;
    }
  }
  if (at < 0) return;
  const answered = new Set(messages.slice(at + 1).flatMap((m) => (m.role === 'tool' && m.tool_call_id ? [m.tool_call_id] : [])));
  for (const call of messages[at]!.tool_calls ?? []) if (!answered.has(call.id)) messages.push({ role: 'tool', tool_call_id: call.id, content: note });
}

/** What the tool loop needs of its sandbox (src/sandbox's Sandbox has it; a unit test's fake too). */
export interface ToolLoopSandbox {
  exec(cmd: string[], options: { timeoutS: number; workdir?: string }): Promise<{ exitCode: number | null; output: string; timedOut: boolean }>;
  put(dir: string, files: ProjectFiles): Promise<void>;
  readFile(path: string, maxBytes?: number): Promise<Buffer | null>;
}

export interface ToolLoopInput {
  spec: OpenAISpec;
  env: NodeJS.ProcessEnv;
  req: AgentRequest;
  sandbox: ToolLoopSandbox;
  /** The project left in the workspace (readWorkspace, in the real sandbox). */
  readProject(): Promise<WorkspaceFiles>;
  signal?: AbortSignal;
  /** Waits before retrying an unavailable endpoint; tests shorten them. */
  retryDelaysMs?: readonly number[];
}

/** The key named by `api_key_env`, or null where the spec names none; unset is an AgentInputError. */
export function apiKeyOf(spec: OpenAISpec, env: NodeJS.ProcessEnv): string | null {
  if (spec.api_key_env === undefined) return null;
  const value = env[spec.api_key_env];
  if (!value) throw new AgentInputError(`openai agent "${spec.name}": environment variable ${spec.api_key_env} (api_key_env) is not set`);
  return value;
}

interface Completion {
  message: ChatMessage;
  tokensIn: number | null;
  tokensOut: number | null;
}

/**
 * One Gen or Repair call as a tool loop in `sandbox`: the previous project into the workspace, then
 * model turns (chat completions offering GAP_TOOLS) and their tool calls, until the model calls
 * finish or answers without a tool call, at most `max_turns` turns within `timeout_s`. The project is
 * what the workspace holds then; the conversation is the session the next call continues.
 */
export async function runOpenAIToolLoop(input: ToolLoopInput): Promise<AgentResponse> {
  const { spec, req, sandbox, signal } = input;
  const who = `openai agent "${spec.name}"`;
  const key = apiKeyOf(spec, input.env);
  const secrets: KnownSecret[] = key ? [{ name: spec.api_key_env!, value: key }, ...knownSecrets(spec, input.env).filter((s) => s.value !== key)] : [];
  const redact = (text: string) => redactSecrets(text, secrets);
  const started = Date.now();
  const deadline = started + spec.timeout_s * 1000;
  const left = () => deadline - Date.now();
  const maxTurns = spec.max_turns ?? DEFAULT_MAX_TURNS;

  await sandbox.put(AGENT_WORKSPACE, req.previousFiles ?? {});
  const { messages, note } = startConversation(req.session, req.prompt);
  const log: string[] = [];
  if (note) log.push(`[envgap] ${note}`);
  let tokensIn: number | null = null;
  let tokensOut: number | null = null;
  const add = (a: number | null, b: number | null) => (b === null ? a : (a ?? 0) + b);
  const spent = (): SpentOnFailure => ({ tokensIn, tokensOut, costUsd: null, transcript: tail(redact(log.join('\n')), TRANSCRIPT_CHARS), session: encodeSession(messages) });
  const timedOut = (during: string): never => {
    closeOpenCalls(messages, 'not run: the call reached its time limit');
    log.push(`[envgap] stopped ${during}: the call's time limit of ${spec.timeout_s} s (timeout_s) was reached`);
    throw new AgentCallFailedError('AgentTimeout', `${who} reached its time limit of ${spec.timeout_s} s (timeout_s) ${during}`, spent());
  };
  const aborted = (): never => {
    throw new AgentAbortedError(`${who}: aborted`);
  };
  // A conversation past the model's context would overflow at every later call too: the next one starts afresh (the system message kept).
  const overflowed = (said: string): never => {
    log.push(`[envgap] the conversation no longer fits the model's context; the next call starts a new one`);
    throw new AgentCallFailedError('AgentContext', `${who}: the conversation no longer fits the model's context: ${said}`, { ...spent(), session: encodeSession(messages.slice(0, 1)) });
  };

  let turns = 0;
  let finished = false;
  while (!finished) {
    if (turns >= maxTurns) {
      log.push(`[envgap] stopped: ${maxTurns} model turns (max_turns) without finish`);
      throw new AgentCallFailedError('AgentBudget', `${who} used its ${maxTurns} model turns (max_turns) without calling finish`, spent());
    }
    if (signal?.aborted) aborted();
    if (left() <= 0) timedOut(`before model turn ${turns + 1}`);
    const answer = await askModel(spec, key, messages, { deadline, signal, retryDelaysMs: input.retryDelaysMs ?? RETRY_DELAYS_MS, who, redact, timedOut: () => timedOut(`waiting for model turn ${turns + 1}`), aborted, overflowed });
    turns++;
    tokensIn = add(tokensIn, answer.tokensIn);
    tokensOut = add(tokensOut, answer.tokensOut);
    const calls = answer.message.tool_calls ?? [];
    messages.push(answer.message);
    if (answer.message.content) log.push(`[turn ${turns}] ${answer.message.content}`);
    if (calls.length === 0) {
      // A model that answers without a tool call is done: its project is what it left in the workspace.
      log.push(`[turn ${turns}] (no tool call: the model ended its turn)`);
      break;
    }
    for (const call of calls) {
      if (finished) {
        messages.push({ role: 'tool', tool_call_id: call.id, content: 'not run: finish was called first' });
        continue;
      }
      if (signal?.aborted) aborted();
      if (left() <= 0) timedOut(`before the tool call ${call.function.name}`);
      const parsed = parseGapToolCall(call.function.name, call.function.arguments, left() / 1000);
      let result: string;
      if ('problem' in parsed) {
        result = `error: ${parsed.problem}`;
        log.push(`[turn ${turns}] ${call.function.name}: ${excerpt(call.function.arguments, 300)}\n${result}`);
      } else {
        result = await runTool(sandbox, parsed.call);
        log.push(`[turn ${turns}] ${describeCall(parsed.call)}\n${excerpt(result, 1000)}`);
        if (parsed.call.name === 'finish') finished = true;
      }
      messages.push({ role: 'tool', tool_call_id: call.id, content: redact(result) });
    }
    if (signal?.aborted) aborted();
  }

  const { files, notes } = await input.readProject();
  if (notes.length > 0) log.push(`[envgap] not project files: ${notes.join('; ')}`);
  if (Object.keys(files).length === 0) throw new AgentCallFailedError('AgentOutput', `${who} left no project files in ${AGENT_WORKSPACE}`, spent());
  return { files, tokensIn, tokensOut, costUsd: null, durationMs: Date.now() - started, transcript: spent().transcript, session: encodeSession(messages) };
}

function describeCall(call: GapToolCall): string {
  if (call.name === 'bash') return `$ ${excerpt(call.command, 500)}`;
  if (call.name === 'read_file') return `read_file ${call.path}`;
  if (call.name === 'write_file') return `write_file ${call.path} (${Buffer.byteLength(call.content)} bytes)`;
  return `finish${call.summary ? `: ${excerpt(call.summary, 500)}` : ''}`;
}

/** One tool call in the sandbox; what the model is told. A failed read or write is told to it; a container gone is not its business. */
export async function runTool(sandbox: ToolLoopSandbox, call: GapToolCall): Promise<string> {
  if (call.name === 'bash') {
    const r = await sandbox.exec(['bash', '-c', call.command], { timeoutS: call.timeoutS, workdir: AGENT_WORKSPACE });
    return `${capToolOutput(r.output)}\n[exit ${r.exitCode}${r.timedOut ? `, stopped at the time limit of ${call.timeoutS} s` : ''}]`;
  }
  if (call.name === 'finish') return 'finished';
  try {
    if (call.name === 'read_file') {
      const bytes = await sandbox.readFile(call.path, TOOL_OUTPUT_CAP + 1);
      if (bytes === null) return `error: no file ${call.path}`;
      return bytes.length > TOOL_OUTPUT_CAP ? `${bytes.subarray(0, TOOL_OUTPUT_CAP).toString('utf8')}\n[envgap: cut at ${TOOL_OUTPUT_CAP} bytes]` : bytes.toString('utf8');
    }
    await sandbox.put(path.posix.dirname(call.path), { [path.posix.basename(call.path)]: fileContent(Buffer.from(call.content, 'utf8')) });
    return `wrote ${Buffer.byteLength(call.content)} bytes to ${call.path}`;
  } catch (e) {
    if (e instanceof ContainerGoneError) throw e;
    return `error: ${call.name} ${call.path} failed: ${(e as Error).message}`;
  }
}

interface AskContext {
  deadline: number;
  signal?: AbortSignal;
  retryDelaysMs: readonly number[];
  who: string;
  redact: (text: string) => string;
  timedOut: () => never;
  overflowed: (said: string) => never;
  aborted: () => never;
}

type Attempt = { ok: Completion } | { retry: string };

/**
 * One model turn: a chat completion with the tools, tried again after RETRY_DELAYS_MS where the
 * endpoint could not answer (network, 408, 429, 5xx, an answer that is no chat completion), then a
 * ModelEndpointError `unavailable`. A refused key is `auth`; the context overflowing is the agent's
 * AgentContext (`overflowed`); any other 4xx is the spec's fault (AgentInputError). Never past the deadline.
 */
async function askModel(spec: OpenAISpec, key: string | null, messages: readonly ChatMessage[], ctx: AskContext): Promise<Completion> {
  const url = `${spec.base_url.replace(/\/+$/, '')}/chat/completions`;
  const body = JSON.stringify({
    model: spec.model,
    messages,
    tools: GAP_TOOLS,
    ...(spec.temperature !== undefined && { temperature: spec.temperature }),
    ...(spec.max_tokens !== undefined && { max_tokens: spec.max_tokens }),
  });
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) };
  let last = '';
  for (let attempt = 0; ; attempt++) {
    const r = await tryOnce(url, headers, body, ctx);
    if ('ok' in r) return r.ok;
    last = r.retry;
    const delay = ctx.retryDelaysMs[attempt];
    if (delay === undefined || Date.now() + delay >= ctx.deadline) break;
    await sleep(delay, ctx.signal);
    if (ctx.signal?.aborted) ctx.aborted();
  }
  throw new ModelEndpointError('unavailable', ctx.redact(`${ctx.who}: the model endpoint could not answer (${ctx.retryDelaysMs.length + 1} tries at most): ${last}`));
}

async function tryOnce(url: string, headers: Record<string, string>, body: string, ctx: AskContext): Promise<Attempt> {
  const timeout = AbortSignal.timeout(Math.max(1, ctx.deadline - Date.now()));
  let status: number;
  let text: string;
  try {
    const response = await fetch(url, { method: 'POST', headers, body, signal: ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout });
    status = response.status;
    text = await response.text();
  } catch (e) {
    if (ctx.signal?.aborted) ctx.aborted();
    if (timeout.aborted) ctx.timedOut();
    const cause = (e as { cause?: { message?: string } }).cause?.message;
    return { retry: `request to ${url} failed: ${(e as Error).message}${cause ? ` (${cause})` : ''}` };
  }
  const said = () => ctx.redact(`HTTP ${status} from ${url}: ${tail(text, BODY_TAIL_CHARS)}`);
  if (status === 401 || status === 403) throw new ModelEndpointError('auth', `${ctx.who}: the model endpoint refused the key: ${said()}`);
  if (status === 408 || status === 429 || status >= 500 || status < 200) return { retry: said() };
  if (status >= 400) {
    if (CONTEXT_OVERFLOW.test(text)) ctx.overflowed(said());
    throw new AgentInputError(`${ctx.who}: ${said()}`);
  }
  if (status > 299) return { retry: said() };
  const completion = parseCompletion(text);
  if (typeof completion === 'string') return { retry: ctx.redact(`${url} answered ${completion}`) };
  return { ok: completion };
}

const CONTEXT_OVERFLOW = /context_length_exceeded|maximum context length|context window|too many tokens|prompt is too long/i;

const CompletionBody = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullable().optional(),
          tool_calls: z
            .array(z.object({ id: z.string().nullable().optional(), function: z.object({ name: z.string(), arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullable().optional() }) }))
            .nullable()
            .optional(),
        }),
      }),
    )
    .min(1),
  usage: z.object({ prompt_tokens: z.number().nullable().optional(), completion_tokens: z.number().nullable().optional() }).nullable().optional(),
});

/** The assistant message of a chat completion (its tool calls with ids and string arguments), or what is wrong with the answer. */
function parseCompletion(text: string): Completion | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `something that is not JSON: ${excerpt(text, 500)}`;
  }
  const parsed = CompletionBody.safeParse(value);
  if (!parsed.success) return `JSON that is not a chat completion: ${describeIssues(parsed.error).slice(0, 3).join('; ')}`;
  const m = parsed.data.choices[0]!.message;
  const stamp = Date.now().toString(36);
  const calls = (m.tool_calls ?? []).map((c, i) => ({
    id: c.id || `call_envgap_${stamp}_${i}`,
    type: 'function' as const,
    function: { name: c.function.name, arguments: typeof c.function.arguments === 'string' ? c.function.arguments : JSON.stringify(c.function.arguments ?? {}) },
  }));
  const message: ChatMessage = { role: 'assistant', content: m.content ?? null, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
  return { message, tokensIn: parsed.data.usage?.prompt_tokens ?? null, tokensOut: parsed.data.usage?.completion_tokens ?? null };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** The project in the sandbox's workspace; readWorkspace packs it in /run/envgap, which a preset's call makes and this loop does not. */
async function readProject(sandbox: Sandbox): Promise<WorkspaceFiles> {
  const made = await sandbox.exec(['mkdir', '-p', '/run/envgap'], { timeoutS: 30 });
  if (made.exitCode !== 0) throw new Error(`making /run/envgap in the agent's sandbox failed (exit ${made.exitCode}): ${made.output.slice(-500)}`);
  return readWorkspace(sandbox, AGENT_WORKSPACE);
}

/**
 * The `openai` kind with `tool_loop: true` answering Gen and Repair: each call a tool loop
 * (runOpenAIToolLoop) in a sandbox of its own (agentSandbox.ts), the previous project in /work, the
 * conversation continued across Repair (its `session`).
 */
export class OpenAIToolLoopAgent implements Agent {
  constructor(
    private readonly spec: OpenAISpec,
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly confinement?: Confinement,
  ) {}

  get name(): string {
    return this.spec.name;
  }

  async call(req: AgentRequest, signal?: AbortSignal): Promise<AgentResponse> {
    const c = this.confinement;
    if (!c) throw new Error(`openai agent "${this.name}" (tool_loop): this worker has no Docker to confine it`);
    if (signal?.aborted) throw new AgentAbortedError(`openai agent "${this.name}": aborted before start`);
    const key = apiKeyOf(this.spec, this.env);
    try {
      return await withAgentSandbox(c, { instanceId: req.instanceId, iteration: req.iteration, language: req.language, signal }, (sandbox) =>
        runOpenAIToolLoop({ spec: this.spec, env: this.env, req, sandbox, readProject: () => readProject(sandbox), signal }),
      );
    } catch (e) {
      // The key may come back in a server's error body; it must never reach a log or the database.
      throw key ? redactError(e, [{ name: this.spec.api_key_env!, value: key }]) : e;
    }
  }
}
