import { OpenAISpec } from '../../domain/agentSpec';
import { README_SYSTEM_PROMPT } from '../../readme/prompt';
import { postChatCompletion } from '../chatRequest';
import { OpenAIAgent } from '../openai';
import { OpenAIToolLoopAgent } from '../openaiToolLoop';
import { knownSecrets, redactSecrets } from '../secrets';
import type { AgentKind, ReadmeReply } from './types';

/**
 * `openai`: any OpenAI-compatible chat endpoint. Gen/Repair: the project as structured output, or with
 * `tool_loop` a tool loop in a sandbox (bash, read_file, write_file, finish), its conversation kept
 * across Repair. README:
 * one chat completion with upstream's system message, its reply the answer. Readiness: a tool loop
 * (bash, read_file, write_file, finish) envgap drives, each turn and tool call its own activity.
 */
export const openai: AgentKind<OpenAISpec> = {
  kind: 'openai',
  spec: OpenAISpec,
  protocols: {
    gap: { create: (spec, env, options) => (spec.tool_loop ? new OpenAIToolLoopAgent(spec, env, options.confinement) : new OpenAIAgent(spec, env)) },
    readme: {
      activity: 'openaiAnswer',
      setupScript: true,
      async answer(spec, request): Promise<ReadmeReply> {
        const prompt = await request.prompt();
        const started = Date.now();
        const { message, tokensIn, tokensOut } = await postChatCompletion(spec, { messages: [{ role: 'system', content: README_SYSTEM_PROMPT }, { role: 'user', content: prompt }] }, request.env);
        const spent = { durationMs: Date.now() - started, tokensIn, tokensOut, costUsd: null };
        const text = redactSecrets(message.content ?? '', knownSecrets(spec, request.env));
        if (!text.trim()) return { kind: 'none', status: 'failed', problem: 'the model returned an empty message', log: null, spent };
        return { kind: 'text', text, spent };
      },
    },
    readiness: { session: 'tool-loop' },
  },
};
