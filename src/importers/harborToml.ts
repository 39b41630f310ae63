/**
 * A reader of the TOML that Harbor's task.toml uses (no TOML library is among the project's
 * dependencies): tables, arrays of tables, dotted and quoted keys, basic, literal and multi-line
 * strings, integers, floats, booleans, arrays and inline tables. Dates and times are refused, naming
 * the line (no task.toml field takes one). A key given twice is refused, as TOML says.
 * `test/unit/importers/harborToml.test.ts` checks it against Python's tomllib.
 */
export type TomlValue = string | number | boolean | TomlValue[] | TomlTable;
export interface TomlTable {
  [key: string]: TomlValue;
}

export class TomlError extends Error {}

const BARE_KEY = /[A-Za-z0-9_-]/;
const ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\', e: '\x1b' };

export function parseToml(text: string, file = 'task.toml'): TomlTable {
  return new Reader(text.replace(/^\uFEFF/, ''), file).document();
}

/** Tables made by a header or a dotted key may not be made again by a header; inline tables and arrays are closed. */
const CLOSED = new WeakSet<object>();
const HEADED = new WeakSet<object>();

class Reader {
  private at = 0;
  constructor(private readonly text: string, private readonly file: string) {}

  private fail(message: string): never {
    const line = this.text.slice(0, this.at).split('\n').length;
    throw new TomlError(`${this.file}:${line}: ${message}`);
  }

  private peek(n = 0): string {
    return this.text[this.at + n] ?? '';
  }

  private startsWith(s: string): boolean {
    return this.text.startsWith(s, this.at);
  }

  private spaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.at++;
  }

  /** Spaces, then a comment, then the end of the line (or of the text). */
  private endOfLine(): void {
    this.spaces();
    if (this.peek() === '#') while (this.at < this.text.length && this.peek() !== '\n') this.at++;
    if (this.peek() === '\r' && this.peek(1) === '\n') this.at++;
    if (this.at < this.text.length && this.peek() !== '\n') this.fail(`unexpected "${this.peek()}" after a value (one key = value a line)`);
    this.at++;
  }

  /** Whitespace, newlines and comments (inside arrays). */
  private blank(): void {
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') this.at++;
      else if (c === '#') while (this.at < this.text.length && this.peek() !== '\n') this.at++;
      else return;
    }
  }

  document(): TomlTable {
    const root: TomlTable = {};
    let table = root;
    while (this.at < this.text.length) {
      this.blank();
      if (this.at >= this.text.length) break;
      if (this.startsWith('[[')) {
        this.at += 2;
        const keys = this.keyPath();
        this.spaces();
        if (!this.startsWith(']]')) this.fail('an array of tables header ends with "]]"');
        this.at += 2;
        this.endOfLine();
        table = this.arrayOfTables(root, keys);
      } else if (this.peek() === '[') {
        this.at++;
        const keys = this.keyPath();
        this.spaces();
        if (this.peek() !== ']') this.fail('a table header ends with "]"');
        this.at++;
        this.endOfLine();
        table = this.headedTable(root, keys);
      } else {
        this.keyValue(table);
        this.endOfLine();
      }
    }
    return root;
  }

  private headedTable(root: TomlTable, keys: string[]): TomlTable {
    const parent = this.descend(root, keys.slice(0, -1));
    const last = keys[keys.length - 1]!;
    const existing = parent[last];
    if (existing === undefined) {
      const t: TomlTable = {};
      parent[last] = t;
      HEADED.add(t);
      return t;
    }
    if (!isTable(existing) || HEADED.has(existing) || CLOSED.has(existing)) this.fail(`table [${keys.join('.')}] is defined twice`);
    HEADED.add(existing);
    return existing;
  }

  private arrayOfTables(root: TomlTable, keys: string[]): TomlTable {
    const parent = this.descend(root, keys.slice(0, -1));
    const last = keys[keys.length - 1]!;
    const existing = parent[last];
    const t: TomlTable = {};
    if (existing === undefined) parent[last] = [t];
    else if (Array.isArray(existing) && !CLOSED.has(existing)) existing.push(t);
    else this.fail(`[[${keys.join('.')}]] names a key that is not an array of tables`);
    return t;
  }

  /** The table a dotted path names, made where absent; through an array of tables, its last element. */
  private descend(table: TomlTable, keys: string[]): TomlTable {
    let t = table;
    for (const k of keys) {
      const v = t[k];
      if (v === undefined) {
        const next: TomlTable = {};
        t[k] = next;
        t = next;
      } else if (Array.isArray(v) && !CLOSED.has(v) && v.length > 0 && isTable(v[v.length - 1]!)) {
        t = v[v.length - 1] as TomlTable;
      } else if (isTable(v) && !CLOSED.has(v)) {
        t = v;
      } else {
        this.fail(`key "${k}" is already a value, not a table`);
      }
    }
    return t;
  }

  private keyValue(table: TomlTable): void {
    const keys = this.keyPath();
    this.spaces();
    if (this.peek() !== '=') this.fail(`expected "=" after the key "${keys.join('.')}"`);
    this.at++;
    this.spaces();
    const value = this.value();
    const parent = this.descend(table, keys.slice(0, -1));
    const last = keys[keys.length - 1]!;
    if (last in parent) this.fail(`key "${keys.join('.')}" is given twice`);
    parent[last] = value;
  }

  private keyPath(): string[] {
    const keys: string[] = [];
    for (;;) {
      this.spaces();
      keys.push(this.key());
      this.spaces();
      if (this.peek() !== '.') return keys;
      this.at++;
    }
  }

  private key(): string {
    if (this.peek() === '"') return this.basicString();
    if (this.peek() === "'") return this.literalString();
    const start = this.at;
    while (BARE_KEY.test(this.peek())) this.at++;
    if (this.at === start) this.fail(this.peek() ? `unexpected "${this.peek()}" where a key should be` : 'a key is missing');
    return this.text.slice(start, this.at);
  }

  private value(): TomlValue {
    const c = this.peek();
    if (this.startsWith('"""')) return this.multilineBasic();
    if (this.startsWith("'''")) return this.multilineLiteral();
    if (c === '"') return this.basicString();
    if (c === "'") return this.literalString();
    if (c === '[') return this.array();
    if (c === '{') return this.inlineTable();
    if (this.startsWith('true')) return this.word('true', true);
    if (this.startsWith('false')) return this.word('false', false);
    return this.number();
  }

  private word<T>(w: string, v: T): T {
    this.at += w.length;
    if (BARE_KEY.test(this.peek())) this.fail(`unexpected "${w}${this.peek()}"`);
    return v;
  }

  private number(): number {
    const start = this.at;
    while (/[0-9A-Za-z_.+:-]/.test(this.peek())) this.at++;
    const raw = this.text.slice(start, this.at);
    if (!raw) this.fail(this.peek() ? `unexpected "${this.peek()}" where a value should be` : 'a value is missing');
    if (/^\d{4}-\d{2}-\d{2}/.test(raw) || /^\d{2}:\d{2}/.test(raw)) this.fail(`dates and times are not read here (${raw})`);
    const inf = /^([+-])?inf$/.exec(raw);
    if (inf) return inf[1] === '-' ? -Infinity : Infinity;
    if (/^[+-]?nan$/.test(raw)) return NaN;
    const prefixed = /^0([xob])([0-9A-Fa-f_]+)$/.exec(raw);
    if (prefixed) {
      const digits = prefixed[2]!;
      if (/^_|_$|__/.test(digits)) this.fail(`not a number: ${raw}`);
      const n = parseInt(digits.replace(/_/g, ''), { x: 16, o: 8, b: 2 }[prefixed[1] as 'x' | 'o' | 'b']);
      if (Number.isNaN(n)) this.fail(`not a number: ${raw}`);
      return n;
    }
    const decimal = /^[+-]?(0|[1-9](_?\d)*)(\.\d(_?\d)*)?([eE][+-]?\d(_?\d)*)?$/;
    if (!decimal.test(raw)) this.fail(`not a number: ${raw}`);
    return Number(raw.replace(/_/g, ''));
  }

  private array(): TomlValue[] {
    this.at++;
    const out: TomlValue[] = [];
    for (;;) {
      this.blank();
      if (this.peek() === ']') break;
      out.push(this.value());
      this.blank();
      if (this.peek() === ',') {
        this.at++;
        continue;
      }
      if (this.peek() !== ']') this.fail('an array\'s values are separated by "," and it ends with "]"');
      break;
    }
    this.at++;
    CLOSED.add(out);
    return out;
  }

  private inlineTable(): TomlTable {
    this.at++;
    const out: TomlTable = {};
    this.spaces();
    if (this.peek() === '}') {
      this.at++;
      CLOSED.add(out);
      return out;
    }
    for (;;) {
      this.keyValue(out);
      this.spaces();
      if (this.peek() === ',') {
        this.at++;
        continue;
      }
      if (this.peek() !== '}') this.fail('an inline table\'s pairs are separated by "," and it ends with "}" on the same line');
      this.at++;
      break;
    }
    closeDeep(out);
    return out;
  }

  private basicString(): string {
    this.at++;
    let out = '';
    for (;;) {
      const c = this.peek();
      if (c === '' || c === '\n') this.fail('a string is not closed on its line');
      this.at++;
      if (c === '"') return out;
      out += c === '\\' ? this.escape() : c;
    }
  }

  private escape(): string {
    const c = this.peek();
    this.at++;
    if (c in ESCAPES) return ESCAPES[c]!;
    if (c === 'u' || c === 'U') {
      const n = c === 'u' ? 4 : 8;
      const hex = this.text.slice(this.at, this.at + n);
      if (!new RegExp(`^[0-9A-Fa-f]{${n}}$`).test(hex)) this.fail(`bad escape \\${c}${hex}`);
      this.at += n;
      return String.fromCodePoint(parseInt(hex, 16));
    }
    return this.fail(`bad escape \\${c}`);
  }

  private literalString(): string {
    this.at++;
    const end = this.text.indexOf("'", this.at);
    const nl = this.text.indexOf('\n', this.at);
    if (end < 0 || (nl >= 0 && nl < end)) this.fail('a string is not closed on its line');
    const s = this.text.slice(this.at, end);
    this.at = end + 1;
    return s;
  }

  private multilineBasic(): string {
    this.at += 3;
    if (this.peek() === '\n') this.at++;
    else if (this.startsWith('\r\n')) this.at += 2;
    let out = '';
    for (;;) {
      if (this.at >= this.text.length) this.fail('a """ string is not closed');
      if (this.startsWith('"""')) {
        // Up to two quotes may end the content just before the closing three.
        let extra = 0;
        while (extra < 2 && this.peek(3 + extra) === '"') extra++;
        out += '"'.repeat(extra);
        this.at += 3 + extra;
        return out;
      }
      const c = this.peek();
      this.at++;
      if (c !== '\\') {
        out += c;
        continue;
      }
      // A backslash at a line's end joins it to the next non-blank character.
      const rest = /^[ \t]*\r?\n[ \t\r\n]*/.exec(this.text.slice(this.at));
      if (rest) this.at += rest[0].length;
      else out += this.escape();
    }
  }

  private multilineLiteral(): string {
    this.at += 3;
    if (this.peek() === '\n') this.at++;
    else if (this.startsWith('\r\n')) this.at += 2;
    const end = this.text.indexOf("'''", this.at);
    if (end < 0) this.fail("a ''' string is not closed");
    let stop = end;
    while (stop + 3 < this.text.length && this.text[stop + 3] === "'" && stop - end < 2) stop++;
    const s = this.text.slice(this.at, stop);
    this.at = stop + 3;
    return s;
  }
}

function isTable(v: TomlValue): v is TomlTable {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function closeDeep(t: TomlTable): void {
  CLOSED.add(t);
  for (const v of Object.values(t)) if (isTable(v)) closeDeep(v);
}
