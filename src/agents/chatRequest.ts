import { ApplicationFailure } from '@temporalio/activity';
import type { OpenAISpec } from '../domain/agentSpec';
import { excerpt } from '../text/excerpt';
import { knownSecrets, redactSecrets } from './secrets';

/** A chat message, tool calls included (the readiness tool loop's). */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export interface ChatCompletionAnswer {
  message: ChatMessage;
  tokensIn: number | null;
  tokensOut: number | null;
}

/**
 * One chat-completions request to an OpenAI-compatible endpoint, with the key from this worker's
 * environment (never from the input). Network faults, timeouts, 408, 429 and 5xx are retryable
 * errors; another 4xx is the spec's fault (AgentInputError, not retried). The key is redacted from
 * every message.
 */
export async function postChatCompletion(spec: OpenAISpec, body: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env, who = `openai agent "${spec.name}"`): Promise<ChatCompletionAnswer> {
  const key = spec.api_key_env ? env[spec.api_key_env] : undefined;
  if (spec.api_key_env && !key) throw ApplicationFailure.nonRetryable(`${who}: environment variable ${spec.api_key_env} (api_key_env) is not set`, 'AgentInputError');
  const secrets = knownSecrets(spec, env);
  const url = `${spec.base_url.replace(/\/+$/, '')}/chat/completions`;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) };
  const full = { model: spec.model, ...body, ...(spec.temperature !== undefined && { temperature: spec.temperature }), ...(spec.max_tokens !== undefined && { max_tokens: spec.max_tokens }) };
  let status: number;
  let text: string;
  try {
    const r = await fetch(url, { method: 'POST', headers, body: JSON.stringify(full), signal: AbortSignal.timeout(spec.timeout_s * 1000) });
    status = r.status;
    text = await r.text();
  } catch (e) {
    throw new Error(redactSecrets(`${who}: request to ${url} failed: ${(e as Error).message}`, secrets));
  }
  if (status < 200 || status > 299) {
    const message = redactSecrets(`${who}: HTTP ${status} from ${url}: ${excerpt(text, 2000)}`, secrets);
    if (status === 408 || status === 429 || status >= 500) throw new Error(message);
    throw ApplicationFailure.nonRetryable(message, 'AgentInputError');
  }
  let answer: { choices?: { message?: ChatMessage }[]; usage?: { prompt_tokens?: number; completion_tokens?: number } };
  try {
    answer = JSON.parse(text);
  } catch {
    throw new Error(`${who}: ${url} answered with something that is not JSON: ${excerpt(text, 500)}`);
  }
  const message = answer.choices?.[0]?.message;
  if (!message) throw new Error(`${who}: ${url} answered JSON that is not a chat completion`);
  return { message, tokensIn: answer.usage?.prompt_tokens ?? null, tokensOut: answer.usage?.completion_tokens ?? null };
}
