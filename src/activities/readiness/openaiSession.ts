import type Docker from 'dockerode';
import * as path from 'node:path';
import { postChatCompletion, type ChatMessage } from '../../agents/chatRequest';
import { redactSecrets, knownSecrets } from '../../agents/secrets';
import type { BlobStore } from '../../db/blobs';
import { appendConversation, readConversation } from '../../db/conversationLog';
import type { OpenAISpec } from '../../domain/agentSpec';
import type { LimitClass } from '../../domain/sandboxRecord';
import type { Settings } from '../../infra/settings';
import { capToolOutput, parseToolCall, READINESS_TOOLS, TOOL_LOOP_SYSTEM, TOOL_OUTPUT_CAP } from '../../readiness/toolLoop';
import { README_SESSION_NOTE } from '../../readme/prompt';
import { parseReadmeToolCall, README_TOOL_LOOP_SYSTEM, README_TOOLS, type ToolLoopTask } from '../../readme/toolLoop';
import { excerpt } from '../../text/excerpt';
import { withHeartbeat } from '../heartbeat';
import { shell } from './containers';
import { sandboxDeps, unlessDiskFull, withAttached, withLimit } from './sandboxes';


export interface ModelTurn {
  conversationHash: string;
  /** The calls the model asked for, in order (name and a capped look at the arguments, for the Temporal UI). */
  calls: { id: string; name: string; arguments: string }[];
  /** The model answered without a tool call: its text, capped. */
  text: string | null;
  tokensIn: number | null;
  tokensOut: number | null;
  durationMs: number;
}

export interface ToolResult {
  conversationHash: string;
  name: string;
  exitCode: number | null;
  durationMs: number;
  excerpt: string;
  /** With finish: the report as JSON text. */
  report: string | null;
  /** The sandbox limit a bash call reached (its output ends saying so); absent in histories from before. */
  limit?: LimitClass | null;
}

/**
 * The `openai` agent's session as a tool loop envgap drives: each model turn and each tool call is its
 * own activity, the conversation a blob between them (so a retried step starts from the last
 * completed one). The API key comes from the worker's environment and is redacted wherever the
 * conversation or an error would hold it.
 */
export function createOpenAiSessionActivities({ docker, blobs, settings, log }: { docker: Docker; blobs: BlobStore; settings: Settings; log?: (line: string) => void }) {
  const deps = sandboxDeps({ docker, settings, log });
  return {
    /** The readiness task; or (`task: 'readme'`) the README prompt of blob `promptHash`, the agent at work in the repository's container. */
    async startConversation(input?: { task: ToolLoopTask; promptHash: string }): Promise<string> {
      const messages: ChatMessage[] =
        input?.task === 'readme'
          ? [
              { role: 'system', content: README_TOOL_LOOP_SYSTEM },
              { role: 'user', content: (await blobs.getText(input.promptHash)) + README_SESSION_NOTE.replace('Print your final response, in the format above, as your last output.', 'Call finish with your final response, in the format above, as its answer.') },
            ]
          : [
              { role: 'system', content: TOOL_LOOP_SYSTEM },
              { role: 'user', content: 'Set up the environment of the repository at /repo now.' },
            ];
      return appendConversation(blobs, null, messages, messages);
    },

    async modelTurn(input: { agent: OpenAISpec; conversationHash: string; task?: ToolLoopTask }): Promise<ModelTurn> {
      const spec = input.agent;
      const secrets = knownSecrets(spec, process.env);
      const messages = await readConversation(blobs, input.conversationHash);
      return withHeartbeat(async () => {
        const started = Date.now();
        const { message, tokensIn, tokensOut } = await postChatCompletion(spec, { messages, tools: input.task === 'readme' ? README_TOOLS : READINESS_TOOLS });
        const calls = (message.tool_calls ?? []).map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.function?.name ?? '', arguments: redactSecrets(c.function?.arguments ?? '', secrets) } }));
        const assistant: ChatMessage = { role: 'assistant', content: message.content ? redactSecrets(message.content, secrets) : null, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
        return {
          conversationHash: await appendConversation(blobs, input.conversationHash, [assistant], [...messages, assistant]),
          calls: calls.map((c) => ({ id: c.id, name: c.function.name, arguments: excerpt(c.function.arguments, 300) })),
          text: assistant.content ? excerpt(assistant.content, 1000) : null,
          tokensIn,
          tokensOut,
          durationMs: Date.now() - started,
        };
      });
    },

    /** One tool call of the model's; finish's report is the readiness report as JSON, or the README answer's text. */
    async toolCall(input: { container: string; conversationHash: string; callId: string; maxTimeoutS: number; agent: OpenAISpec; task?: ToolLoopTask }): Promise<ToolResult> {
      const messages = await readConversation(blobs, input.conversationHash);
      const asked = messages.flatMap((m) => m.tool_calls ?? []).find((c) => c.id === input.callId);
      if (!asked) throw new Error(`tool call ${input.callId} is not in the conversation`);
      const secrets = knownSecrets(input.agent, process.env);
      return withHeartbeat(() => withAttached(deps, input.container, async (sandbox) => {
        const started = Date.now();
        const parsed = (input.task === 'readme' ? parseReadmeToolCall : parseToolCall)(asked.function.name, asked.function.arguments, input.maxTimeoutS);
        let content: string;
        let exitCode: number | null = 0;
        let report: string | null = null;
        let limit: LimitClass | null = null;
        if ('problem' in parsed) {
          content = `error: ${parsed.problem}`;
          exitCode = null;
        } else {
          const call = parsed.call;
          if (call.name === 'bash') {
            const r = await shell(sandbox, call.command, call.timeoutS);
            exitCode = r.exitCode;
            const seen = await withLimit(sandbox, r, 'the command');
            limit = seen.limit;
            content = `${capToolOutput(seen.output)}\n[exit ${r.exitCode}${r.timedOut ? `, stopped at the time limit of ${call.timeoutS} s` : ''}]`;
          } else if (call.name === 'read_file') {
            const bytes = await sandbox.readFile(call.path, TOOL_OUTPUT_CAP + 1);
            content = bytes === null ? `error: no file ${call.path}` : bytes.length > TOOL_OUTPUT_CAP ? `${bytes.subarray(0, TOOL_OUTPUT_CAP).toString('utf8')}\n[envgap: cut at ${TOOL_OUTPUT_CAP} bytes]` : bytes.toString('utf8');
          } else if (call.name === 'write_file') {
            const full = await sandbox.put(path.posix.dirname(call.path), { [path.posix.basename(call.path)]: call.content }).then(() => false, unlessDiskFull(sandbox));
            content = full ? `error: writing ${call.path} failed: the container is at its disk limit (${sandbox.diskMb} MiB)` : `wrote ${Buffer.byteLength(call.content)} bytes to ${call.path}`;
          } else {
            report = 'answer' in call ? call.answer : JSON.stringify(call.report, null, 2);
            content = 'session finished';
          }
        }
        content = redactSecrets(content, secrets);
        const answer: ChatMessage = { role: 'tool', tool_call_id: input.callId, content };
        const conversationHash = await appendConversation(blobs, input.conversationHash, [answer], [...messages, answer]);
        return { conversationHash, name: asked.function.name, exitCode, durationMs: Date.now() - started, excerpt: excerpt(content, 1000), report, limit };
      }));
    },
  };
}
