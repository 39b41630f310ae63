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

const NONE: PresetUsage = { tokensIn: null, tokensOut: null, costUsd: null };
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const qwenCode: AgentPreset = {
  kind: 'qwen-code',
  title: 'Qwen Code',
  install: { registry: 'npm', package: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen' },
  defaultModel: 'qwen3-coder-plus',
  defaultApiKeyEnv: 'OPENAI_API_KEY',
  defaultBaseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',

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
    if (!ENV_NAME.test(call.apiKeyEnv)) throw new Error(`qwen-code: "${call.apiKeyEnv}" is not a variable name`);
    // Qwen Code reads its key from OPENAI_API_KEY; a study's own variable is handed over by the shell.
    const key = call.apiKeyEnv === 'OPENAI_API_KEY' ? '' : `OPENAI_API_KEY="$${call.apiKeyEnv}" `;
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
    return responses === 0 ? NONE : { tokensIn, tokensOut, costUsd: null };
  },
  costSource: null,
  sessionPaths: ['.qwen/projects'],
};

type Printed = { type?: unknown; message?: { usage?: Record<string, unknown> } };

/** The messages it printed: the JSON array of --output-format json (or stream-json lines). */
function printedMessages(stdout: string): Printed[] {
  const text = stdout.trim();
  const whole = parse(text);
  if (Array.isArray(whole)) return whole.filter(isObject);
  return stdout
    .split('\n')
    .map((line) => parse(line.trim()))
    .filter(isObject);
}

function parse(text: string): unknown {
  if (!text.startsWith('[') && !text.startsWith('{')) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Printed {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One shell word of any text: single-quoted, each ' written as '\''. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
