import type { CMakeArgument } from './cmakeLexer';

/** Longest value kept: variables that double each other could otherwise grow without bound. */
const MAX_VALUE = 10_000;

/**
 * CMake variables as far as a manifest can know them: `set`, `option`, `list(APPEND)` and the
 * directory variables. Conditions are not evaluated, so the last assignment written wins.
 */
export class CMakeVariables {
  private readonly values: Map<string, string>;

  constructor(values?: Map<string, string>) {
    this.values = new Map(values);
  }

  /** A child scope, as add_subdirectory opens: it sees the parent's variables, its own sets stay its own. */
  child(): CMakeVariables {
    return new CMakeVariables(this.values);
  }

  get(name: string): string | undefined {
    return this.values.get(name);
  }

  set(name: string, value: string): void {
    if (value.length <= MAX_VALUE) this.values.set(name, value);
  }

  unset(name: string): void {
    this.values.delete(name);
  }

  /** Expands `${NAME}` references, innermost first; unknown ones stay as written. */
  expand(text: string): string {
    let current = text;
    for (let round = 0; round < 16; round++) {
      const next = current.replace(/(?<!\\)\$\{([A-Za-z0-9_.+/-]+)\}/g, (whole, name: string) => this.values.get(name) ?? `\u0000${name}\u0001`);
      if (next === current || next.length > MAX_VALUE) break;
      current = next;
    }
    // Unknown references were parked so that a later round does not try them again.
    return current.replace(/\u0000([^\u0001]*)\u0001/g, '${$1}');
  }

  /**
   * The arguments a command receives: references expanded, escapes decoded, unquoted arguments
   * split into list elements on `;` (empty elements dropped), as CMake does.
   */
  evaluate(args: CMakeArgument[]): string[] {
    const out: string[] = [];
    for (const arg of args) {
      if (arg.kind === 'bracket') out.push(arg.text);
      else if (arg.kind === 'quoted') out.push(decodeEscapes(this.expand(arg.text.replace(/\\\r?\n/g, '')), false));
      else out.push(...splitList(decodeEscapes(this.expand(arg.text), true)));
    }
    return out;
  }
}

/** Splits a CMake list on `;` not escaped by a backslash, dropping empty elements. */
export function splitList(value: string): string[] {
  return value
    .split(/(?<!\\);/)
    .map((element) => element.replace(/\\;/g, ';'))
    .filter((element) => element !== '');
}

function decodeEscapes(text: string, keepEscapedSemicolons: boolean): string {
  return text.replace(/\\(.)/g, (whole, c: string) => {
    if (c === ';') return keepEscapedSemicolons ? whole : ';';
    if (c === 'n') return '\n';
    if (c === 't') return '\t';
    if (c === 'r') return '\r';
    return c;
  });
}
