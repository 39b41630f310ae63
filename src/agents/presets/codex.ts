import { isVariableName, jsonLines } from './shared';
import type { AgentPreset, PresetCall, PresetUsage, ReportedFailure } from './types';

/**
 * OpenAI's Codex CLI (npm @openai/codex: a Node launcher and a native Rust binary in the platform
 * package it pulls in as an optional dependency), run as `codex exec`, its non-interactive mode.
 *
 * What it needs, found with 0.171.0 against the model-API double (test/helpers/modelApi/openaiResponses.ts):
 * - A provider entry of its own in ~/.codex/config.toml (base_url, env_key, wire_api = "responses"):
 *   Codex ignores OPENAI_BASE_URL and otherwise goes to api.openai.com.
 * - `--dangerously-bypass-approvals-and-sandbox`: its own sandbox (bubblewrap / Landlock) cannot start
 *   inside a container, and every tool call then fails while it still exits 0; the container is the
 *   sandbox. With it no approval is ever asked.
 * - `--skip-git-repo-check`: it refuses a workspace that is not a git repository otherwise.
 * - The prompt on stdin (`-`), so no argument limit or quoting applies.
 * - `--json`: JSONL events on stdout (thread.started, turn.started, item.started / item.completed,
 *   turn.completed with usage, error, turn.failed).
 * - Resume: `codex exec resume --last --all` continues the newest session recorded under
 *   ~/.codex/sessions (one rollout-*.jsonl a session, appended to by each call); `--all` drops its
 *   filter on the session's working folder. Nothing else under HOME is needed.
 *
 * Its usage is the session's: turn.completed reports the thread's running total, which in a resumed
 * session includes the earlier calls'. Before a resume the command prints that total as it stood
 * (an `envgap.resumed_usage` line, read from the session's rollout file), and usage() subtracts it.
 */

/** The id of envgap's provider entry in config.toml. */
const PROVIDER = 'envgap';

/** The type of the line a resume prints first: the session's token_count event as it stood. */
export const RESUMED_USAGE_EVENT = 'envgap.resumed_usage';

/**
 * Before `codex exec resume --last`: the newest session's last token_count event (its running total)
 * from its rollout file (sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl, so the paths sort by time),
 * wrapped as one JSON line. POSIX sh, find, sort, grep and tail only: the image need not have Node.js on
 * its PATH. The pattern leaves out a quoted copy inside a message (its quotes are escaped there) and a
 * token_count without totals (`"info":null`).
 */
const RESUMED_USAGE = [
  `f=$(find "$HOME/.codex/sessions" -name 'rollout-*.jsonl' 2>/dev/null | sort | tail -n 1)`,
  `t=$([ -n "$f" ] && grep -F '"type":"token_count","info":{' "$f" | tail -n 1)`,
  `if [ -n "$t" ]; then printf '{"type":"${RESUMED_USAGE_EVENT}","event":%s}\\n' "$t"; fi`,
].join('; ');

/** A TOML basic string. */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

/** A word for `sh -c`, quoted unless it is plainly safe. */
function shellWord(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

export function codexConfig(call: PresetCall): string {
  // Codex reads the key from the variable config.toml names (env_key); it must be one.
  if (!isVariableName(call.apiKeyEnv)) throw new Error(`${JSON.stringify(call.apiKeyEnv)} is not a variable name`);
  return [
    `model = ${tomlString(call.model)}`,
    `model_provider = ${tomlString(PROVIDER)}`,
    // The container is the sandbox: never ask, never sandbox (the command line says so too).
    `approval_policy = "never"`,
    `sandbox_mode = "danger-full-access"`,
    // Nothing but the model endpoint: no update check, no analytics, no feedback upload, no OTel export.
    `check_for_update_on_startup = false`,
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[feedback]',
    'enabled = false',
    '',
    '[features]',
    // The plugin marketplace syncs from GitHub (api.github.com) and ChatGPT (chatgpt.com) at start;
    // connectors (apps) come from ChatGPT too.
    'plugins = false',
    'remote_plugin = false',
    'apps = false',
    // Without this a refused connection is retried for ever ("Reconnecting... waiting for network").
    'unbounded_connection_retries = false',
    '',
    '[otel]',
    'exporter = "none"',
    'trace_exporter = "none"',
    'metrics_exporter = "none"',
    '',
    `[model_providers.${PROVIDER}]`,
    `name = "envgap relay"`,
    `base_url = ${tomlString(call.baseUrl)}`,
    `env_key = ${tomlString(call.apiKeyEnv)}`,
    'wire_api = "responses"',
    '',
  ].join('\n');
}

function codexCommand(call: PresetCall): string {
  const flags = ['--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '-m', shellWord(call.model)];
  const prompt = ['-', '<', shellWord(call.promptFile)];
  if (!call.resume) return ['codex', 'exec', ...flags, ...prompt].join(' ');
  return `${RESUMED_USAGE}; ${['codex', 'exec', 'resume', '--last', '--all', ...flags, ...prompt].join(' ')}`;
}

function tokens(usage: any, key: 'input_tokens' | 'output_tokens'): number | null {
  return usage && typeof usage === 'object' && typeof usage[key] === 'number' ? usage[key] : null;
}

/**
 * This call's tokens from `codex exec --json`'s JSONL: the last turn.completed usage (the session's
 * running total), less the total the session had before a resume; null where no turn completed.
 */
export function codexUsage(stdout: string): PresetUsage {
  let resumed: any = null;
  let last: any = null;
  for (const event of jsonLines(stdout)) {
    if (event.type === RESUMED_USAGE_EVENT && resumed === null) resumed = event.event?.payload?.info?.total_token_usage ?? null;
    if (event.type === 'turn.completed' && event.usage) last = event.usage;
  }
  const delta = (key: 'input_tokens' | 'output_tokens'): number | null => {
    const now = tokens(last, key);
    if (now === null) return null;
    return Math.max(0, now - (tokens(resumed, key) ?? 0));
  };
  return { tokensIn: delta('input_tokens'), tokensOut: delta('output_tokens'), costUsd: null };
}

/** Its final message: the text of the last agent_message item. */
export function codexFinalText(stdout: string): string | null {
  let text: string | null = null;
  for (const event of jsonLines(stdout)) {
    if (event.type === 'item.completed' && event.item?.type === 'agent_message' && typeof event.item.text === 'string') text = event.item.text;
  }
  return text;
}

/** A context overflow, as Codex reports it in an error / turn.failed event. */
export function codexReportedFailure(output: string): ReportedFailure | null {
  for (const event of jsonLines(output)) {
    const message = event.type === 'turn.failed' ? event.error?.message : event.type === 'error' ? event.message : null;
    if (typeof message === 'string' && /ran out of room in the model's context window|context_length_exceeded/i.test(message)) return 'AgentContext';
  }
  return null;
}

export const codex: AgentPreset = {
  kind: 'codex',
  title: 'Codex CLI',
  install: { registry: 'npm', package: '@openai/codex', version: '0.171.0', bin: 'codex' },
  // The newest model 0.171 offers its shell to as a plain function tool (exec_command); the gpt-5.6
  // and gpt-6 models get "code mode" (one JavaScript `exec` tool calling the others).
  vendor: { model: 'gpt-5.5', apiKeyEnv: 'OPENAI_API_KEY', baseUrl: 'https://api.openai.com/v1' },
  homeFiles: (call) => ({ '.codex/config.toml': codexConfig(call) }),
  env: () => ({ NO_COLOR: '1' }),
  command: codexCommand,
  finalText: codexFinalText,
  usage: codexUsage,
  costSource: null,
  sessionPaths: ['.codex/sessions'],
  reportedFailure: codexReportedFailure,
};
