import { shellQuote } from '../../text/shellQuote';
import { parseCliUsage } from '../cliUsage';
import { keyHandover, lastJsonObject, NO_USAGE } from './shared';
import type { AgentPreset, PresetCall, PresetUsage, ReportedFailure } from './types';

/**
 * Anthropic's Claude Code (npm @anthropic-ai/claude-code: a stub `claude` that its postinstall replaces
 * with the native binary, about 400 MB, of the platform package it pulls in as an optional dependency;
 * no Node.js at run time), run headless as `claude -p` on the Anthropic Messages API at
 * ANTHROPIC_BASE_URL.
 *
 * What it needs, found with 2.1.332 against the model-API double (test/helpers/modelApi/anthropic.ts):
 * - `--dangerously-skip-permissions`: every tool allowed, never a question. As root it exits 1 with
 *   "cannot be used with root/sudo privileges" unless IS_SANDBOX=1 says the container is the sandbox.
 * - The prompt on stdin (`-p` without a prompt argument reads it): no argument-length limit and no
 *   option parsing of a prompt that starts with '-'.
 * - `--output-format json`: one JSON object on stdout, the `result` (subtype, is_error, result,
 *   session_id, usage with input_tokens and the cache reads and writes apart, total_cost_usd at list
 *   price, stop_reason, api_error_status).
 * - Nonessential traffic off (CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: no update check, no feature
 *   flags, no telemetry, no error reports, no HEAD /api/hello of the base URL); with it the only
 *   connection it opens is to ANTHROPIC_BASE_URL. The finer switches are set too.
 * - Every model call on the study's model: the "small fast" helper model and subagents' model too.
 * - Resume: `--continue` takes the newest session of the working folder, a JSONL transcript under
 *   ~/.claude/projects/<the workspace's path, '/' as '-'>/; that folder alone carries a session into a
 *   fresh HOME. The transcript ends with a `cost-state` line, from which a resumed run adds the earlier
 *   calls' cost to its total_cost_usd; those lines are dropped first so each call reports its own cost.
 * - A failing endpoint: it retries 401, 429, 500 and 529 alike, 10 times with a backoff doubling to about
 *   35 s (about 3 minutes in all), then exits 1 with an is_error result naming api_error_status; a 400
 *   "prompt is too long" ends it at once (terminal_reason prompt_too_long). A request times out after
 *   600 s (API_TIMEOUT_MS) and is retried too.
 */

/** The transcripts it continues from (under HOME). */
const PROJECTS = '.claude/projects';

/** Drops the cost-state lines of the restored transcripts, so that total_cost_usd is this call's alone. */
const DROP_COST_STATE = `find "$HOME/${PROJECTS}" -name '*.jsonl' -exec sed -i '/^{"type":"cost-state"/d' {} + 2>/dev/null;`;

export function claudeCodeEnv(call: PresetCall): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: call.baseUrl,
    // Its helper calls and subagents on the study's model too (by default Haiku).
    ANTHROPIC_SMALL_FAST_MODEL: call.model,
    ANTHROPIC_DEFAULT_HAIKU_MODEL: call.model,
    CLAUDE_CODE_SUBAGENT_MODEL: call.model,
    // The container is the sandbox: --dangerously-skip-permissions as root.
    IS_SANDBOX: '1',
    // Nothing but the model endpoint.
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_BUG_COMMAND: '1',
    CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
    CLAUDE_CODE_IDE_SKIP_AUTO_INSTALL: '1',
    DISABLE_INSTALLATION_CHECKS: '1',
  };
}

export function claudeCodeCommand(call: PresetCall): string {
  // Claude Code reads its key from ANTHROPIC_API_KEY; a study's own variable is handed over by the shell.
  const key = keyHandover('claude-code', 'ANTHROPIC_API_KEY', call);
  const flags = ['-p', ...(call.resume ? ['--continue'] : []), '--output-format json', '--dangerously-skip-permissions', '--model', shellQuote(call.model)];
  const run = `${key}claude ${flags.join(' ')} < ${shellQuote(call.promptFile)}`;
  return call.resume ? `${DROP_COST_STATE} ${run}` : run;
}

type Result = {
  type?: unknown;
  subtype?: unknown;
  is_error?: unknown;
  terminal_reason?: unknown;
  result?: unknown;
  stop_reason?: unknown;
  api_error_status?: unknown;
  modelUsage?: Record<string, { costBasis?: unknown }>;
};

/** The `result` object it prints with --output-format json (the whole of stdout, or its last JSON line). */
export function claudeCodeResult(stdout: string): Result | null {
  return lastJsonObject(stdout, (value) => value.type === 'result');
}

/** Its final message: the result's `result`, null where the result is an error (its text is Claude Code's, not the model's). */
export function claudeCodeFinalText(stdout: string): string | null {
  const result = claudeCodeResult(stdout);
  return result && result.is_error !== true && typeof result.result === 'string' ? result.result : null;
}

/**
 * Tokens (cache reads and writes counted as input) and cost of its result. The cost is its own estimate
 * at list price; for a model it has no price of (a gateway's own name: `costBasis: "unknown"` in
 * modelUsage) it still prints a made-up figure, which is left out.
 */
export function claudeCodeUsage(stdout: string): PresetUsage {
  const result = claudeCodeResult(stdout);
  if (!result) return NO_USAGE;
  const usage = parseCliUsage(stdout);
  const models = result.modelUsage && typeof result.modelUsage === 'object' ? Object.values(result.modelUsage) : [];
  const unpriced = models.some((m) => m?.costBasis === 'unknown');
  return unpriced ? { ...usage, costUsd: null } : usage;
}

/** Its words for a request over the model's context window (the API's, and its own before it sends one). */
const CONTEXT = /prompt is too long|context window|input length and `max_tokens` exceed context limit|request_too_large|conversation is too long/i;

export function claudeCodeReportedFailure(output: string): ReportedFailure | null {
  const result = claudeCodeResult(output);
  if (result) {
    if (result.stop_reason === 'refusal') return 'AgentRefused';
    if (result.subtype === 'error_max_turns' || result.subtype === 'error_max_budget_usd') return 'AgentBudget';
    if (result.terminal_reason === 'prompt_too_long') return 'AgentContext';
    const text = typeof result.result === 'string' ? result.result : '';
    if (result.is_error === true && CONTEXT.test(text)) return 'AgentContext';
    if (result.is_error !== true) return null;
  }
  return CONTEXT.test(output) ? 'AgentContext' : null;
}

export const claudeCode: AgentPreset = {
  kind: 'claude-code',
  title: 'Claude Code',
  install: { registry: 'npm', package: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' },
  vendor: { model: 'claude-sonnet-4-5', apiKeyEnv: 'ANTHROPIC_API_KEY', baseUrl: 'https://api.anthropic.com' },
  homeFiles: () => ({}),
  env: claudeCodeEnv,
  command: claudeCodeCommand,
  finalText: claudeCodeFinalText,
  usage: claudeCodeUsage,
  costSource: "Claude Code's own list-price estimate",
  sessionPaths: [PROJECTS],
  reportedFailure: claudeCodeReportedFailure,
};
