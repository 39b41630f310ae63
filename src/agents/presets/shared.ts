import type { PresetCall, PresetUsage } from './types';

/**
 * What the presets share: reading what a CLI printed on stdout (one JSON object, JSON Lines, token
 * counts), and the study's key variable on a command line.
 */

/** Usage where the agent printed none. */
export const NO_USAGE: PresetUsage = { tokensIn: null, tokensOut: null, costUsd: null };

/** The value of a JSON text, or null where it is none. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A token count: a finite number, not below 0. */
export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** The JSON objects printed one a line (JSON Lines), in order; other lines (stray output) are passed over. */
export function jsonLines(stdout: string): any[] {
  const objects: any[] = [];
  for (const line of stdout.split('\n')) {
    const text = line.trim();
    if (!text.startsWith('{')) continue;
    const value = parseJson(text);
    if (isObject(value)) objects.push(value);
  }
  return objects;
}

/**
 * The JSON object a CLI printed last, the first of these that `accept` takes: the whole of stdout;
 * else the rest of it from a line that opens an object (one printed pretty after other lines), the
 * earliest such line first; else a line holding one object (JSON Lines, or other output after it),
 * the last such line first. Null where none.
 */
export function lastJsonObject(stdout: string, accept: (value: Record<string, any>) => boolean = () => true): Record<string, any> | null {
  const text = stdout.trim();
  const candidates = [text];
  for (let i = text.indexOf('{'); i >= 0; i = text.indexOf('{', i + 1)) if (i > 0 && text[i - 1] === '\n') candidates.push(text.slice(i));
  candidates.push(...text.split('\n').reverse().map((line) => line.trim()));
  for (const candidate of candidates) {
    if (!candidate.startsWith('{')) continue;
    const value = parseJson(candidate);
    if (isObject(value) && accept(value)) return value;
  }
  return null;
}

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A name the shell expands as a variable (`$NAME`), as a study's api_key_env must be. */
export function isVariableName(name: string): boolean {
  return VARIABLE_NAME.test(name);
}

/** Throws where the study's key variable (call.apiKeyEnv) is no variable name. */
export function requireKeyVariable(kind: string, call: PresetCall): void {
  if (!isVariableName(call.apiKeyEnv)) throw new Error(`${kind}: "${call.apiKeyEnv}" is not a variable name`);
}

/**
 * For a CLI that reads its key from one variable only: the assignment that goes before its command
 * and hands the study's key variable over to that one (`CLI_KEY="$STUDY_KEY" `), '' where they are
 * the same. Throws where the study's is no variable name.
 */
export function keyHandover(kind: string, cliVariable: string, call: PresetCall): string {
  requireKeyVariable(kind, call);
  return call.apiKeyEnv === cliVariable ? '' : `${cliVariable}="$${call.apiKeyEnv}" `;
}
