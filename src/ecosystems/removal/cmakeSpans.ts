/**
 * Command invocations of a CMake listfile as spans of its text (name, where it starts and ends, its
 * arguments with theirs), for text transforms that keep everything else as written. Follows the
 * CMake language as src/ecosystems/cpp/cmakeLexer.ts does (line and bracket comments, quoted and
 * bracket arguments, nested parentheses), tolerantly: what it cannot read ends the scan.
 */
export interface CMakeSpanArgument {
  text: string;
  start: number;
  end: number;
}

export interface CMakeSpan {
  /** Lower case. */
  name: string;
  start: number;
  /** Just after the closing parenthesis. */
  end: number;
  args: CMakeSpanArgument[];
}

export function cmakeSpans(text: string): CMakeSpan[] {
  const spans: CMakeSpan[] = [];
  let i = 0;
  const n = text.length;
  const bracketClose = (at: number): number | null => {
    const m = /^\[(=*)\[/.exec(text.slice(at, at + 64));
    if (!m) return null;
    const close = text.indexOf(`]${m[1]}]`, at + m[0].length);
    return close < 0 ? n : close + m[1]!.length + 2;
  };
  const skipSpaceAndComments = () => {
    for (;;) {
      while (i < n && /\s/.test(text[i]!)) i++;
      if (text[i] !== '#') return;
      const bracket = bracketClose(i + 1);
      if (bracket !== null) i = bracket;
      else while (i < n && text[i] !== '\n') i++;
    }
  };
  for (;;) {
    skipSpaceAndComments();
    if (i >= n) return spans;
    const name = /[A-Za-z_][A-Za-z0-9_]*/y;
    name.lastIndex = i;
    const m = name.exec(text);
    if (!m) return spans;
    const start = i;
    i = name.lastIndex;
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text[i] !== '(') return spans;
    i++;
    const args: CMakeSpanArgument[] = [];
    let depth = 0;
    for (;;) {
      skipSpaceAndComments();
      if (i >= n) return spans;
      const c = text[i]!;
      if (c === ')') {
        i++;
        if (depth === 0) break;
        depth--;
        continue;
      }
      if (c === '(') {
        depth++;
        i++;
        continue;
      }
      const from = i;
      if (c === '"') {
        for (i++; i < n && text[i] !== '"'; i++) if (text[i] === '\\') i++;
        i++;
        args.push({ text: text.slice(from + 1, i - 1), start: from, end: i });
        continue;
      }
      const bracket = c === '[' ? bracketClose(i) : null;
      if (bracket !== null) {
        i = bracket;
        args.push({ text: text.slice(from, i), start: from, end: i });
        continue;
      }
      while (i < n && !/[\s()#"]/.test(text[i]!)) i += text[i] === '\\' ? 2 : 1;
      args.push({ text: text.slice(from, i), start: from, end: i });
    }
    spans.push({ name: m[0].toLowerCase(), start, end: i, args });
  }
}
