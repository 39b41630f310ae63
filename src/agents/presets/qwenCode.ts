import { shellQuote } from '../../text/shellQuote';
import { isCount, isObject, jsonLines, keyHandover, NO_USAGE, parseJson } from './shared';
import type { AgentPreset, PresetCall, PresetUsage } from './types';

/**
 * Qwen Code (@qwen-code/qwen-code, a fork of Gemini CLI), on any OpenAI-compatible Chat Completions
 * endpoint: auth type `openai` in ~/.qwen/settings.json, the endpoint and model in OPENAI_BASE_URL and
 * OPENAI_MODEL, the key in OPENAI_API_KEY. Headless with `--yolo` (every tool allowed, no folder-trust
 * prompt: folder trust is off by default) and `--output-format json`: one JSON array of messages
 * (Claude Code's shape) whose assistant messages carry each model response's usage; the closing
 * `result` sums the whole session, the earlier calls' too where it resumed one. No cost.
 *
 * Usage statistics are off in the settings (with them on it resolves its statistics host at start);
 * auto-update and telemetry are off too, and so are the background memory agents (extraction after a
 * turn, consolidation), model calls of their own that no assistant message reports. The prompt goes
 * on stdin, which Qwen Code reads when stdin is not a terminal: no argument-length limit and no option
 * parsing of a prompt that starts with '-'. Its session lives under ~/.qwen/projects/<the workspace's
 * path>/chats; `--continue` resumes the latest one of the workspace (and starts a new one where there
 * is none).
 */

export const qwenCode: AgentPreset = {
  kind: 'qwen-code',
  title: 'Qwen Code',
  install: { registry: 'npm', package: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen' },
  vendor: { model: 'qwen3-coder-plus', apiKeyEnv: 'OPENAI_API_KEY', baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1' },

  homeFiles() {
    const settings = {
      security: { auth: { selectedType: 'openai' } },
      general: { enableAutoUpdate: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
    };
    return { '.qwen/settings.json': `${JSON.stringify(settings, null, 2)}\n` };
  },

  env(call: PresetCall) {
    return {
      OPENAI_BASE_URL: call.baseUrl,
      OPENAI_MODEL: call.model,
      // Its headless --yolo notice on stderr, on every call.
      QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
    };
  },

  command(call: PresetCall) {
    // Qwen Code reads its key from OPENAI_API_KEY; a study's own variable is handed over by the shell.
    const key = keyHandover('qwen-code', 'OPENAI_API_KEY', call);
    const resume = call.resume ? ' --continue' : '';
    return `${key}qwen --yolo --output-format json${resume} < ${shellQuote(call.promptFile)}`;
  },

  usage(stdout: string): PresetUsage {
    // The result's usage counts the whole session: a resumed one replays the earlier calls' figures.
    // Each assistant message this call printed carries the usage of its own model response instead.
    let responses = 0;
    let tokensIn = 0;
    let tokensOut = 0;
    for (const message of printedMessages(stdout)) {
      const usage = message.type === 'assistant' ? message.message?.usage : undefined;
      if (!usage || !isCount(usage.input_tokens) || !isCount(usage.output_tokens)) continue;
      responses++;
      // The prompt tokens as the endpoint counted them (cache reads included); the completion tokens.
      tokensIn += usage.input_tokens;
      tokensOut += usage.output_tokens;
    }
    return responses === 0 ? NO_USAGE : { tokensIn, tokensOut, costUsd: null };
  },
  finalText: qwenCodeFinalText,
  costSource: null,
  sessionPaths: ['.qwen/projects'],
};

type Printed = {
  type?: unknown;
  is_error?: unknown;
  parent_tool_use_id?: unknown;
  message?: { content?: unknown; usage?: Record<string, unknown> };
};

/**
 * Its final message: the text of the last assistant message (of the agent itself, not a subagent's)
 * that has text, its text blocks joined as Qwen Code joins them for its result's `result`; null
 * where it has none or its result is an error (the message then is Qwen Code's, as
 * "[API Error: 401 ...]").
 */
export function qwenCodeFinalText(stdout: string): string | null {
  let text: string | null = null;
  for (const message of printedMessages(stdout)) {
    if (message.type === 'result' && message.is_error === true) return null;
    if (message.type !== 'assistant' || typeof message.parent_tool_use_id === 'string') continue;
    const content = message.message?.content;
    const texts = Array.isArray(content) ? content.filter((block) => block?.type === 'text' && typeof block.text === 'string').map((block) => block.text as string) : [];
    if (texts.length > 0) text = texts.join('');
  }
  return text;
}

/** The messages it printed: the JSON array of --output-format json (or stream-json lines). */
function printedMessages(stdout: string): Printed[] {
  const whole = parseJson(stdout.trim());
  return Array.isArray(whole) ? whole.filter(isObject) : jsonLines(stdout);
}
