import { shellQuote } from '../../text/shellQuote';
import { keyHandover, lastJsonObject, NO_USAGE } from './shared';
import type { AgentPreset, PresetCall, PresetUsage, ReportedFailure } from './types';

/**
 * Google's Gemini CLI (npm @google/gemini-cli, one bundled script for Node >= 20), run headless on
 * the Gemini API's generateContent (streamGenerateContent?alt=sse) at GOOGLE_GEMINI_BASE_URL.
 *
 * What it needs, found with 0.61.0 (notes in the preset's tests):
 * - The API-key auth type chosen in ~/.gemini/settings.json (security.auth.selectedType
 *   "gemini-api-key"): with a base URL set it would pick its "gateway" type, which headless mode
 *   rejects (exit 41, "Invalid auth method selected."). The key comes from GEMINI_API_KEY only.
 * - A trusted workspace (--skip-trust, GEMINI_CLI_TRUST_WORKSPACE): a fresh folder exits 55.
 * - --yolo: every tool approved. `-p ''` with the prompt on stdin: headless, up to 8 MiB of prompt.
 * - --output-format json: one JSON object on stdout (session_id, response, stats.models.<model>.tokens
 *   {input, prompt, candidates, total, cached, thoughts, tool}); a fatal error prints
 *   {session_id, error: {type, message, code}} on stderr instead, and the exit status is the HTTP
 *   status mod 256 (401: 145, 429: 173, 500: 244, 400: 144) after its retries (10 attempts for 429 and
 *   5xx, 5 s doubling to 30 s: about 4 minutes; a hung request times out after 60 s and is retried alike).
 * - Usage statistics, telemetry, update checks and IDE mode off in settings.json: with them the only
 *   connection it opens is to the base URL. GEMINI_CLI_NO_RELAUNCH keeps it one process.
 * - Resume: `--resume latest` continues the newest session of the workspace, a JSONL file under
 *   ~/.gemini/tmp/<project slug>/chats; the slug is found again from the .project_root marker beside
 *   it, so ~/.gemini/tmp alone carries a session into a fresh HOME. 0.61 replays every earlier tool
 *   result twice on resume (google-gemini/gemini-cli#29365: recorded in the model message's
 *   toolCalls[].result and as a user message of its own), which the Gemini API rejects (400, "the
 *   number of function response parts is equal to the number of function call parts"), so the command
 *   first drops those repeated user messages from the recorded sessions (DEDUPE_SESSIONS).
 */

/** Gemini CLI's own settings (~/.gemini/settings.json): no telemetry, update checks, IDE or trust prompts. */
export function geminiSettings(): Record<string, unknown> {
  return {
    security: {
      auth: { selectedType: 'gemini-api-key' },
      folderTrust: { enabled: false },
    },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false, logPrompts: false },
    general: {
      enableAutoUpdate: false,
      enableAutoUpdateNotification: false,
      enableNotifications: false,
      // No cleanup of the session Repair resumes (sessions otherwise go after 30 days).
      sessionRetention: { enabled: false },
    },
    ide: { enabled: false, hasSeenNudge: true },
    advanced: { autoConfigureMemory: false },
  };
}

/** Where Gemini CLI records its sessions, under HOME. */
const SESSIONS = '.gemini/tmp';

/**
 * A Node.js script (no single quotes: it goes on the line in them) that rewrites the recorded sessions
 * (JSONL files under its argument) without the user messages whose parts are all function responses
 * to calls the model message before them already holds results for (in a message line, or in the
 * `messages` of a `$set` or metadata line); any failure leaves the files as they are.
 */
export const DEDUPE_SESSIONS = [
  'const fs = require("fs"), path = require("path");',
  'const fix = (f) => {',
  '  let last = new Set(), changed = false;',
  '  const keep = (m) => {',
  '    if (!m || typeof m.id !== "string") return true;',
  '    if (m.type === "gemini") { last = new Set((Array.isArray(m.toolCalls) ? m.toolCalls : []).filter((t) => t && t.result != null).map((t) => t.id)); return true; }',
  '    const c = m.content;',
  '    return !(m.type === "user" && Array.isArray(c) && c.length > 0 && c.every((p) => p && p.functionResponse && last.has(p.functionResponse.id)));',
  '  };',
  '  const out = [];',
  '  for (const line of fs.readFileSync(f, "utf8").split("\\n")) {',
  '    let r = null;',
  '    try { r = JSON.parse(line); } catch {}',
  '    if (!r || typeof r !== "object") { out.push(line); continue; }',
  '    if (typeof r.id === "string") { if (keep(r)) out.push(line); else changed = true; continue; }',
  '    let edited = false;',
  '    for (const h of [r.$set, r]) if (h && Array.isArray(h.messages)) {',
  '      last = new Set();',
  '      const n = h.messages.length;',
  '      h.messages = h.messages.filter(keep);',
  '      if (h.messages.length !== n) edited = true;',
  '    }',
  '    out.push(edited ? JSON.stringify(r) : line);',
  '    changed = changed || edited;',
  '  }',
  '  if (changed) fs.writeFileSync(f, out.join("\\n"));',
  '};',
  'const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else if (e.name.endsWith(".jsonl")) fix(p); } };',
  'try { walk(process.argv[1]); } catch {}',
].join(' ');

/**
 * Its words for a request over the model's context window: the Gemini API's 400 ("The input token
 * count (N) exceeds the maximum number of tokens allowed (M).") and its own check before it sends one.
 */
const CONTEXT = /input token count[^\n]*exceeds the maximum|exceeds the maximum number of tokens|Context window will overflow/i;

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export const geminiCli: AgentPreset = {
  kind: 'gemini-cli',
  title: 'Gemini CLI',
  install: { registry: 'npm', package: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  vendor: { model: 'gemini-2.5-pro', apiKeyEnv: 'GEMINI_API_KEY', baseUrl: 'https://generativelanguage.googleapis.com' },

  homeFiles() {
    return { '.gemini/settings.json': JSON.stringify(geminiSettings(), null, 2) + '\n' };
  },

  env(call: PresetCall) {
    return {
      GOOGLE_GEMINI_BASE_URL: call.baseUrl,
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      GEMINI_TELEMETRY_ENABLED: 'false',
      // One process: without it the CLI relaunches itself as a child (for a bigger heap) and its
      // parent ignores SIGTERM, so a stop reaches only half of it.
      GEMINI_CLI_NO_RELAUNCH: 'true',
      NO_BROWSER: 'true',
    };
  },

  command(call: PresetCall) {
    // The CLI reads the key from GEMINI_API_KEY only: copy it where the study names another variable.
    const key = keyHandover('gemini-cli', 'GEMINI_API_KEY', call);
    const resume = call.resume ? ' --resume latest' : '';
    // The prompt on stdin (up to 8 MiB; an argument would stop at 128 KiB), `-p ''` for headless mode.
    const run = `${key}gemini --skip-trust --yolo --model ${shellQuote(call.model)} --output-format json${resume} -p '' < ${shellQuote(call.promptFile)}`;
    return call.resume ? `node -e '${DEDUPE_SESSIONS}' "$HOME/${SESSIONS}" 2>/dev/null; ${run}` : run;
  },

  /** Its final message: the `response` of the JSON object it prints (Gemini CLI prints one, pretty, after any other line). */
  finalText(stdout: string): string | null {
    const response = lastJsonObject(stdout)?.response;
    return typeof response === 'string' ? response : null;
  },

  usage(stdout: string): PresetUsage {
    const models = lastJsonObject(stdout)?.stats?.models;
    if (!models || typeof models !== 'object') return NO_USAGE;
    let tokensIn: number | null = null;
    let tokensOut: number | null = null;
    for (const model of Object.values<any>(models)) {
      const tokens = model?.tokens ?? {};
      // `prompt` is the whole prompt (cached tokens included: `input` is the uncached part), `tool`
      // the prompt tokens of tool use.
      const prompt = count(tokens.prompt) ?? count(tokens.input);
      const tool = count(tokens.tool);
      const input = prompt === null && tool === null ? null : (prompt ?? 0) + (tool ?? 0);
      // Thinking tokens are output the model was billed for, beside the answer's candidates.
      const candidates = count(tokens.candidates);
      const thoughts = count(tokens.thoughts);
      if (input !== null) tokensIn = (tokensIn ?? 0) + input;
      if (candidates !== null || thoughts !== null) tokensOut = (tokensOut ?? 0) + (candidates ?? 0) + (thoughts ?? 0);
    }
    return { tokensIn, tokensOut, costUsd: null };
  },

  costSource: null,
  sessionPaths: [SESSIONS],

  reportedFailure(output: string): ReportedFailure | null {
    if (/Reached max session turns/i.test(output)) return 'AgentBudget';
    if (CONTEXT.test(output)) return 'AgentContext';
    return null;
  },
};
