export interface CliUsage {
  tokensIn: number | null;
  tokensOut: number | null;
  costUsd: number | null;
}

const NONE: CliUsage = { tokensIn: null, tokensOut: null, costUsd: null };

/**
 * Best-effort token and cost figures from what a CLI agent printed on stdout: the last JSON object
 * (the whole of stdout, or one line of JSON Lines) that has `usage.input_tokens` and
 * `usage.output_tokens`. This is Claude Code's `--output-format json` result (with `total_cost_usd`,
 * and cache reads and writes counted apart from input_tokens) and Codex's `exec --json`
 * `turn.completed` event. Anything else gives nulls.
 */
export function parseCliUsage(stdout: string): CliUsage {
  const candidates = [stdout.trim(), ...stdout.split('\n').reverse()];
  for (const text of candidates) {
    const usage = usageOf(text.trim());
    if (usage) return usage;
  }
  return NONE;
}

function usageOf(text: string): CliUsage | null {
  if (!text.startsWith('{')) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const record = value as { usage?: Record<string, unknown>; total_cost_usd?: unknown };
  const usage = record?.usage;
  if (!usage || !isCount(usage.input_tokens) || !isCount(usage.output_tokens)) return null;
  const cacheWrite = isCount(usage.cache_creation_input_tokens) ? usage.cache_creation_input_tokens : 0;
  const cacheRead = isCount(usage.cache_read_input_tokens) ? usage.cache_read_input_tokens : 0;
  return {
    tokensIn: usage.input_tokens + cacheWrite + cacheRead,
    tokensOut: usage.output_tokens,
    costUsd: typeof record.total_cost_usd === 'number' ? record.total_cost_usd : null,
  };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
