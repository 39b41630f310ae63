import { ManifestError } from '../manifestError';

export interface CMakeArgument {
  /** Quoted and unquoted arguments keep their escapes and `${...}` references; bracket arguments are literal. */
  text: string;
  kind: 'unquoted' | 'quoted' | 'bracket';
  line: number;
}

export interface CMakeCommand {
  /** Lower case: CMake command names are case-insensitive. */
  name: string;
  args: CMakeArgument[];
  line: number;
}

/**
 * Splits a CMake listfile into command invocations, following the CMake language grammar: line and
 * bracket comments, quoted arguments with escapes and line continuations, bracket arguments, and
 * parentheses nested inside arguments (kept as `(` and `)` arguments, as CMake passes them). Variable
 * references are left as text. Throws ManifestError where CMake would report a parse error.
 */
export function lexCMake(text: string, file: string): CMakeCommand[] {
  return new Lexer(text.startsWith('\uFEFF') ? text.slice(1) : text, file).commands();
}

class Lexer {
  private i = 0;
  private line = 1;

  constructor(
    private readonly text: string,
    private readonly file: string,
  ) {}

  commands(): CMakeCommand[] {
    const commands: CMakeCommand[] = [];
    for (;;) {
      this.skipSpaceAndComments();
      if (this.i >= this.text.length) return commands;
      const line = this.line;
      const name = /[A-Za-z_][A-Za-z0-9_]*/y;
      name.lastIndex = this.i;
      const match = name.exec(this.text);
      if (!match) this.fail(line, `unexpected "${this.text[this.i]}": expected a command`);
      this.i = name.lastIndex;
      while (this.text[this.i] === ' ' || this.text[this.i] === '\t') this.i++;
      if (this.text[this.i] !== '(') this.fail(this.line, `expected "(" after ${match[0]}`);
      this.i++;
      commands.push({ name: match[0].toLowerCase(), args: this.args(match[0], line), line });
    }
  }

  private args(command: string, line: number): CMakeArgument[] {
    const args: CMakeArgument[] = [];
    let depth = 0;
    for (;;) {
      this.skipSpaceAndComments();
      if (this.i >= this.text.length) this.fail(line, `${command}( is not closed`);
      const c = this.text[this.i];
      const at = this.line;
      if (c === '(' || c === ')') {
        this.i++;
        if (c === ')' && depth === 0) return args;
        depth += c === '(' ? 1 : -1;
        args.push({ text: c, kind: 'unquoted', line: at });
      } else if (c === '"') {
        args.push({ text: this.quoted(), kind: 'quoted', line: at });
      } else if (this.bracketOpenAt(this.i) !== null) {
        args.push({ text: this.bracket(this.i), kind: 'bracket', line: at });
      } else {
        args.push({ text: this.unquoted(), kind: 'unquoted', line: at });
      }
    }
  }

  private skipSpaceAndComments(): void {
    while (this.i < this.text.length) {
      const c = this.text[this.i];
      if (c === '\n') {
        this.line++;
        this.i++;
      } else if (c === ' ' || c === '\t' || c === '\r') {
        this.i++;
      } else if (c === '#') {
        if (this.bracketOpenAt(this.i + 1) !== null) {
          this.bracket(this.i + 1);
        } else {
          while (this.i < this.text.length && this.text[this.i] !== '\n') this.i++;
        }
      } else {
        return;
      }
    }
  }

  /** The `=` count of a bracket opening `[==[` at `at`, or null when there is none. */
  private bracketOpenAt(at: number): number | null {
    const open = /\[(=*)\[/y;
    open.lastIndex = at;
    const match = open.exec(this.text);
    return match ? match[1].length : null;
  }

  /** Reads a bracket argument or comment body starting at `at` (its `[`); a newline right after the opening is dropped. */
  private bracket(at: number): string {
    const line = this.line;
    const equals = this.bracketOpenAt(at) ?? 0;
    const close = `]${'='.repeat(equals)}]`;
    const start = at + equals + 2;
    const end = this.text.indexOf(close, start);
    if (end < 0) this.fail(line, `bracket [${'='.repeat(equals)}[ is not closed`);
    const body = this.text.slice(start, end);
    this.countLines(this.i, end + close.length);
    this.i = end + close.length;
    return body.replace(/^\r?\n/, '');
  }

  private quoted(): string {
    const line = this.line;
    const start = ++this.i;
    while (this.i < this.text.length) {
      const c = this.text[this.i];
      if (c === '"') {
        const body = this.text.slice(start, this.i);
        this.countLines(start, this.i);
        this.i++;
        return body;
      }
      this.i += c === '\\' ? 2 : 1;
    }
    return this.fail(line, 'quoted argument is not closed');
  }

  private unquoted(): string {
    const start = this.i;
    while (this.i < this.text.length) {
      const c = this.text[this.i];
      if (c === '\\') {
        if (this.text[this.i + 1] === '\n' || this.i + 1 >= this.text.length) this.fail(this.line, 'a backslash must escape a character');
        this.i += 2;
      } else if (c === '"' && this.i > start) {
        // Legacy unquoted argument such as -DA="b c": the quotes stay part of the text.
        const line = this.line;
        const close = this.text.indexOf('"', this.i + 1);
        if (close < 0) this.fail(line, 'quoted argument is not closed');
        this.countLines(this.i, close);
        this.i = close + 1;
      } else if (/[\s()#"]/.test(c)) {
        break;
      } else {
        this.i++;
      }
    }
    return this.text.slice(start, this.i);
  }

  private countLines(from: number, to: number): void {
    for (let k = from; k < to; k++) if (this.text.charCodeAt(k) === 10) this.line++;
  }

  private fail(line: number, message: string): never {
    throw new ManifestError(this.file, line, message);
  }
}
