import { z } from 'zod';
import type { OpenAISpec } from './spec';
import { buildMessages, parseProjectAnswer, RESPONSE_FORMAT } from './openaiProtocol';
import { redactError } from './secrets';
import { tail } from './tail';
import { AgentAbortedError, AgentInputError, AgentOutputError, type Agent, type AgentRequest, type AgentResponse } from './types';

const BODY_TAIL_CHARS = 2_000;
const TRANSCRIPT_CHARS = 20_000;

const ChatCompletion = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullable().optional(), refusal: z.string().nullable().optional() }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
  usage: z
    .object({ prompt_tokens: z.number().nullable().optional(), completion_tokens: z.number().nullable().optional() })
    .nullable()
    .optional(),
});

/**
 * Any OpenAI-compatible chat-completions endpoint. The project comes back as strict structured output
 * ({files: [{path, content}]}), validated before it is used. Retryable failures (network, timeout,
 * 408, 429, 5xx) are plain Errors; other 4xx answers are AgentInputErrors.
 */
export class OpenAIAgent implements Agent {
  constructor(
    private readonly spec: OpenAISpec,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  get name(): string {
    return this.spec.name;
  }

  async call(req: AgentRequest, signal?: AbortSignal): Promise<AgentResponse> {
    const key = this.apiKey();
    try {
      return await this.complete(req, key, signal);
    } catch (e) {
      // The key may come back in a server's error body; it must never reach a log or the database.
      throw key ? redactError(e, [{ name: this.spec.api_key_env!, value: key }]) : e;
    }
  }

  private apiKey(): string | null {
    const name = this.spec.api_key_env;
    if (name === undefined) return null;
    const value = this.env[name];
    if (!value) throw new AgentInputError(`openai agent "${this.name}": environment variable ${name} (api_key_env) is not set`);
    return value;
  }

  private async complete(req: AgentRequest, key: string | null, signal?: AbortSignal): Promise<AgentResponse> {
    if (signal?.aborted) throw new AgentAbortedError(`openai agent "${this.name}": aborted before start`);
    const started = Date.now();
    const url = `${this.spec.base_url.replace(/\/+$/, '')}/chat/completions`;
    const timeout = AbortSignal.timeout(this.spec.timeout_s * 1000);
    const body = {
      model: this.spec.model,
      messages: buildMessages(req),
      response_format: RESPONSE_FORMAT,
      ...(this.spec.temperature !== undefined && { temperature: this.spec.temperature }),
      ...(this.spec.max_tokens !== undefined && { max_tokens: this.spec.max_tokens }),
    };
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (key) headers.authorization = `Bearer ${key}`;

    let status: number;
    let text: string;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      status = response.status;
      text = await response.text();
    } catch (e) {
      if (signal?.aborted) throw new AgentAbortedError(`openai agent "${this.name}": aborted`);
      if (timeout.aborted) throw new Error(`openai agent "${this.name}": ${url} did not answer within ${this.spec.timeout_s} s`);
      const cause = (e as { cause?: { message?: string } }).cause?.message;
      throw new Error(`openai agent "${this.name}": request to ${url} failed: ${(e as Error).message}${cause ? ` (${cause})` : ''}`);
    }

    if (status < 200 || status > 299) {
      const message = `openai agent "${this.name}": HTTP ${status} from ${url}: ${tail(text, BODY_TAIL_CHARS)}`;
      const retryable = status === 408 || status === 429 || status >= 500 || status < 400;
      throw retryable ? new Error(message) : new AgentInputError(message);
    }

    const completion = parseCompletion(text, url, this.name);
    const choice = completion.choices[0];
    const content = choice.message.content;
    if (typeof content !== 'string') {
      const refusal = choice.message.refusal;
      throw new AgentOutputError(`openai agent "${this.name}": the model gave no content${refusal ? `; it refused: ${refusal}` : ''}`);
    }
    let files;
    try {
      files = parseProjectAnswer(content);
    } catch (e) {
      const truncated = choice.finish_reason === 'length' ? ' (the answer was cut off at max_tokens)' : '';
      throw new AgentOutputError(`openai agent "${this.name}"${truncated}: ${(e as Error).message}`);
    }
    return {
      files,
      tokensIn: completion.usage?.prompt_tokens ?? null,
      tokensOut: completion.usage?.completion_tokens ?? null,
      costUsd: null,
      durationMs: Date.now() - started,
      transcript: tail(content, TRANSCRIPT_CHARS),
    };
  }
}

function parseCompletion(text: string, url: string, name: string): z.infer<typeof ChatCompletion> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`openai agent "${name}": ${url} answered with something that is not JSON: ${tail(text, BODY_TAIL_CHARS)}`);
  }
  const parsed = ChatCompletion.safeParse(value);
  if (!parsed.success) {
    throw new Error(`openai agent "${name}": ${url} answered JSON that is not a chat completion:\n${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}
