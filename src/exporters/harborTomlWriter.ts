/**
 * TOML for the task.toml envgap writes: top-level keys, then tables and their sub-tables in the
 * order given; values are strings, finite numbers (integers, or floats made with `tomlFloat`),
 * booleans and arrays of them.
 */
export class TomlFloat {
  constructor(readonly value: number) {}
}
export type TomlOut = string | number | boolean | TomlFloat | TomlOut[] | TomlTableOut;
export interface TomlTableOut {
  [key: string]: TomlOut | undefined;
}

/** A number written as a float (600 → 600.0), as Harbor's own files write timeouts. */
export const tomlFloat = (n: number) => new TomlFloat(n);

const BARE = /^[A-Za-z0-9_-]+$/;

export function tomlKey(k: string): string {
  return BARE.test(k) ? k : tomlString(k);
}

const NAMED: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };

/** A basic string, every control character escaped. */
export function tomlString(s: string): string {
  return `"${s.replace(/[\\"\u0000-\u001f\u007f]/g, (c) => NAMED[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

function finite(n: number): number {
  if (!Number.isFinite(n)) throw new Error(`TOML: ${n} is not written here`);
  return n;
}

function value(v: TomlOut): string {
  if (typeof v === 'string') return tomlString(v);
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return String(finite(v));
  if (v instanceof TomlFloat) return Number.isInteger(finite(v.value)) ? `${v.value}.0` : String(v.value);
  if (Array.isArray(v)) return `[${v.map(value).join(', ')}]`;
  throw new Error('TOML: a table inside an array is not written here');
}

const isTable = (v: TomlOut): v is TomlTableOut => typeof v === 'object' && !Array.isArray(v) && !(v instanceof TomlFloat);

function section(path: string[], table: TomlTableOut, out: string[]): void {
  const entries = Object.entries(table).filter((e): e is [string, TomlOut] => e[1] !== undefined);
  const plain = entries.filter(([, v]) => !isTable(v));
  const tables = entries.filter(([, v]) => isTable(v)) as [string, TomlTableOut][];
  if (path.length > 0 && (plain.length > 0 || tables.length === 0)) out.push('', `[${path.map(tomlKey).join('.')}]`);
  for (const [k, v] of plain) out.push(`${tomlKey(k)} = ${value(v)}`);
  for (const [k, v] of tables) section([...path, k], v, out);
}

/** The document, its top-level keys first. */
export function tomlDocument(doc: TomlTableOut): string {
  const out: string[] = [];
  section([], doc, out);
  return `${out.join('\n').replace(/^\n+/, '')}\n`;
}
