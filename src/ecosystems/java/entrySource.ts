/**
 * Java source with comments blanked and string, text block and character literals emptied, so that
 * a commented-out or quoted `main` is never taken for a real one. Line breaks are kept.
 */
export function javaSourceCode(source: string): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const comment = source.startsWith('//', i) ? '//' : source.startsWith('/*', i) ? '/*' : null;
    if (comment === '//') {
      const end = source.indexOf('\n', i);
      i = end < 0 ? source.length : end;
    } else if (comment === '/*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? source.length : end + 2;
      out += source.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (source.startsWith('"""', i)) {
      const end = source.indexOf('"""', i + 3);
      const stop = end < 0 ? source.length : end + 3;
      out += `""${source.slice(i, stop).replace(/[^\n]/g, '')}`;
      i = stop;
    } else if (source[i] === '"' || source[i] === "'") {
      const quote = source[i];
      let j = i + 1;
      while (j < source.length && source[j] !== quote && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      out += quote + quote;
      i = j + 1;
    } else {
      out += source[i];
      i++;
    }
  }
  return out;
}
