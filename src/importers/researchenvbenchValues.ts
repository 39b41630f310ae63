/**
 * How ResearchEnvBench's scorer reads loose JSON values (m5/utils.py, m5/build_master_table.py),
 * restated so the importer keeps exactly what upstream would count.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** safe_get: the value at a path of object keys, or undefined. */
export function at(value: unknown, ...keys: string[]): Json | undefined {
  let cur: unknown = value;
  for (const key of keys) {
    if (!isObject(cur) || !(key in cur)) return undefined;
    cur = cur[key];
  }
  return cur as Json;
}

// Python's float() of a string, for the forms JSON files carry (underscores, inf and nan left out).
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** coerce_int: ints as they are, floats and numeric strings truncated, booleans as 1/0 (Python's bool is an int). */
export function coerceInt(value: Json | undefined): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return Math.trunc(value);
  const text = String(value).trim();
  return typeof value === 'string' && DECIMAL.test(text) ? Math.trunc(Number(text)) : null;
}

/** coerce_float: numbers (and booleans) as they are, numeric strings parsed. */
export function coerceFloat(value: Json | undefined): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return value;
  const text = typeof value === 'string' ? value.trim() : '';
  return DECIMAL.test(text) ? Number(text) : null;
}

/** Python's truthiness, for upstream's `a or b` chains: 0 and null fall through. */
export function orInt(...values: (number | null)[]): number | null {
  for (const v of values) if (v !== null && v !== 0) return v;
  return values.length > 0 ? values[values.length - 1] : null;
}

/** normalize_status: success, failed, skipped, missing, or the word itself ('' for none). */
export function normalizeStatus(value: Json | undefined): string {
  if (value === undefined || value === null) return '';
  const t = pyStr(value).trim().toLowerCase();
  if (['success', 'ok', 'passed', 'pass'].includes(t)) return 'success';
  if (['failed', 'failure', 'error', 'fail'].includes(t)) return 'failed';
  if (['skipped', 'skip'].includes(t)) return 'skipped';
  if (t === 'missing') return 'missing';
  return t || 'unknown';
}

/** str() of a scalar as Python writes it (True, not true). */
function pyStr(value: Json): string {
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** parse_repo_full_name: owner/name from a GitHub URL, else the URL as given. */
export function repoFullName(repoUrl: string): string {
  const s = repoUrl.trim();
  if (s === '') return '';
  const m = /github\.com[:/]([^/]+\/[^/]+?)(?:\.git)?$/.exec(s);
  return m ? m[1] : s;
}

/** _normalize_repo_url: no trailing .git or slashes. */
export function normalizeRepoUrl(url: string): string {
  let s = url.trim();
  if (s.endsWith('.git')) s = s.slice(0, -4);
  return s.replace(/\/+$/, '');
}
