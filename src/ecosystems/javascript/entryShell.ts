// Outside quotes these make a script more than one plain command: operators, redirections,
// expansions, globs, comments.
const SHELL_SPECIAL = /[;&|<>`$(){}*?[\]#~!]/;

/**
 * The words of a plain shell command line, quotes removed; null when it uses anything beyond words
 * and quotes (operators, redirections, expansions) or leaves a quote open, so callers never guess.
 */
export function splitShellWords(line: string): string[] | null {
  const words: string[] = [];
  let word: string | null = null;
  let i = 0;
  while (i < line.length) {
    const ch = line[i];
    if (/\s/.test(ch)) {
      if (word !== null) words.push(word);
      word = null;
      i++;
    } else if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return null;
      word = (word ?? '') + line.slice(i + 1, end);
      i = end + 1;
    } else if (ch === '"') {
      const end = line.indexOf('"', i + 1);
      const inner = end < 0 ? '' : line.slice(i + 1, end);
      if (end < 0 || /[$`\\]/.test(inner)) return null;
      word = (word ?? '') + inner;
      i = end + 1;
    } else if (ch === '\\' || SHELL_SPECIAL.test(ch)) {
      return null;
    } else {
      word = (word ?? '') + ch;
      i++;
    }
  }
  if (word !== null) words.push(word);
  return words;
}
