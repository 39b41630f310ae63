export interface CMakeCommand {
  /** Lower case: CMake command names are case-insensitive. */
  name: string;
  /** Arguments with quotes removed; `${...}` references are left as written. */
  args: string[];
}

/**
 * The command invocations of a CMakeLists.txt, in order, with comments (`# ...`, `#[[ ... ]]`)
 * skipped. Enough CMake for finding targets and simple variables, not an interpreter: bracket
 * arguments, quoted arguments and nested parentheses are read, escapes are kept as written.
 */
export function parseCMakeCommands(text: string): CMakeCommand[] {
  const commands: CMakeCommand[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '#') {
      i = skipComment(text, i);
    } else if (/[A-Za-z_]/.test(ch)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i))![0];
      let j = i + name.length;
      while (j < text.length && /[ \t]/.test(text[j])) j++;
      if (text[j] !== '(') {
        i = j;
        continue;
      }
      const { args, end } = readArguments(text, j + 1);
      commands.push({ name: name.toLowerCase(), args });
      i = end;
    } else {
      i++;
    }
  }
  return commands;
}

function skipComment(text: string, start: number): number {
  const bracket = /^#\[(=*)\[/.exec(text.slice(start, start + 64));
  if (bracket) {
    const close = text.indexOf(`]${bracket[1]}]`, start + bracket[0].length);
    return close < 0 ? text.length : close + bracket[1].length + 2;
  }
  const newline = text.indexOf('\n', start);
  return newline < 0 ? text.length : newline;
}

/** Reads arguments from just after `(` to the matching `)`. */
function readArguments(text: string, start: number): { args: string[]; end: number } {
  const args: string[] = [];
  let depth = 0;
  let i = start;
  while (i < text.length) {
    const ch = text[i];
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === '#') {
      i = skipComment(text, i);
    } else if (ch === ')') {
      if (depth === 0) return { args, end: i + 1 };
      depth--;
      i++;
    } else if (ch === '(') {
      depth++;
      i++;
    } else if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      args.push(text.slice(i + 1, j));
      i = j + 1;
    } else {
      const bracket = /^\[(=*)\[/.exec(text.slice(i, i + 64));
      if (bracket) {
        const close = text.indexOf(`]${bracket[1]}]`, i + bracket[0].length);
        const stop = close < 0 ? text.length : close;
        args.push(text.slice(i + bracket[0].length, stop).replace(/^\n/, ''));
        i = close < 0 ? text.length : close + bracket[1].length + 2;
        continue;
      }
      let j = i;
      while (j < text.length && !/[\s()"#]/.test(text[j])) j += text[j] === '\\' ? 2 : 1;
      args.push(text.slice(i, j));
      i = j;
    }
  }
  return { args, end: text.length };
}
