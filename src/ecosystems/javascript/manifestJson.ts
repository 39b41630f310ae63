import { excerpt } from '../../text/excerpt';
import { lineOfOffset, ManifestError } from '../manifestError';

export interface LocatedJson {
  value: unknown;
  /**
   * The line of a key (the last one when repeated, as JSON.parse keeps the last), by its path from the
   * top: ['dependencies'] or ['dependencies', 'lodash']; null when unknown. Keys two deep at most.
   */
  keyLine(path: string[]): number | null;
  /** Keys written more than once in the same object, by the path of their object (two deep at most). */
  repeatedKeys: { path: string[]; key: string; line: number }[];
}

/**
 * JSON.parse, plus the lines that JSON.parse does not tell: where a syntax error is, and where keys
 * are. `text` comes without a byte order mark. Throws ManifestError on invalid JSON.
 */
export function parseJsonLocated(text: string, file: string): LocatedJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const at = scanJson(text).errorAt;
    throw new ManifestError(file, at === null ? null : lineOfOffset(text, at), `invalid JSON: ${excerpt((e as Error).message)}`);
  }
  const scan = scanJson(text);
  return {
    value,
    keyLine: (path) => {
      const at = scan.keys.get(path.join('\u0000'));
      return at === undefined ? null : lineOfOffset(text, at);
    },
    repeatedKeys: scan.repeated.map((r) => ({ path: r.path, key: r.key, line: lineOfOffset(text, r.at) })),
  };
}

interface Scan {
  errorAt: number | null;
  keys: Map<string, number>;
  repeated: { path: string[]; key: string; at: number }[];
}

const RECORDED_DEPTH = 2;

class ScanError {
  constructor(readonly at: number) {}
}

/** A strict JSON reader that only records offsets: where the first error is, and where keys are. */
function scanJson(text: string): Scan {
  const keys = new Map<string, number>();
  const repeated: Scan['repeated'] = [];
  let i = 0;
  const fail = (): never => {
    throw new ScanError(i);
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const string = (): string => {
    const start = i++;
    while (i < text.length) {
      const c = text[i];
      if (c === '"') return JSON.parse(text.slice(start, ++i)) as string;
      if (c < ' ') fail();
      if (c === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) fail();
      }
      i++;
    }
    return fail();
  };
  const literal = (pattern: RegExp) => {
    pattern.lastIndex = i;
    if (!pattern.exec(text)) fail();
    i = pattern.lastIndex;
  };
  const value = (path: string[] | null): void => {
    space();
    const c = text[i];
    if (c === '{') object(path);
    else if (c === '[') array();
    else if (c === '"') string();
    else if (c === '-' || (c >= '0' && c <= '9')) literal(/-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y);
    else literal(/true|false|null/y);
  };
  /** Past the opening bracket at `i`; false where the `close` one follows at once (passed too): no items. */
  const opens = (close: '}' | ']'): boolean => {
    i++;
    space();
    if (text[i] !== close) return true;
    i++;
    return false;
  };
  /** After an item: true past a comma, false past the `close` bracket. */
  const more = (close: '}' | ']'): boolean => {
    space();
    if (text[i] === ',') {
      i++;
      return true;
    }
    if (text[i] !== close) fail();
    i++;
    return false;
  };
  const object = (path: string[] | null) => {
    if (!opens('}')) return;
    const seen = new Set<string>();
    do {
      space();
      if (text[i] !== '"') fail();
      const at = i;
      const key = string();
      const keyPath = path && path.length < RECORDED_DEPTH ? [...path, key] : null;
      if (keyPath) {
        if (seen.has(key)) repeated.push({ path: keyPath.slice(0, -1), key, at });
        seen.add(key);
        keys.set(keyPath.join('\u0000'), at);
      }
      space();
      if (text[i] !== ':') fail();
      i++;
      value(keyPath);
    } while (more('}'));
  };
  const array = () => {
    if (!opens(']')) return;
    do value(null);
    while (more(']'));
  };
  try {
    value([]);
    space();
    if (i < text.length) fail();
    return { errorAt: null, keys, repeated };
  } catch (e) {
    // At the end of the input, point at the last thing written rather than past trailing blank lines.
    if (e instanceof ScanError) return { errorAt: Math.min(e.at, text.trimEnd().length), keys, repeated };
    // Nesting too deep for this reader: lines stay unknown.
    if (e instanceof RangeError) return { errorAt: null, keys: new Map(), repeated: [] };
    throw e;
  }
}
