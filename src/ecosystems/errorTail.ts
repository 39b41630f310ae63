/**
 * The end of a step's output, as fed back to an agent: terminal control removed (ANSI colours, and
 * `\r` progress redraws keep only their last state), trailing blank lines dropped, then at most
 * maxLines lines and maxChars characters from the end.
 */
export function errorTail(output: string, maxLines = 40, maxChars = 4000): string {
  const lines = output
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .split(/\r?\n/)
    .map((line) => line.slice(line.lastIndexOf('\r') + 1).trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  let tail = lines.slice(Math.max(0, lines.length - maxLines)).join('\n');
  if (tail.length > maxChars) {
    tail = tail.slice(tail.length - maxChars);
    // Prefer to start on a whole line, unless that would drop everything.
    const newline = tail.indexOf('\n');
    if (newline >= 0 && newline < tail.length - 1) tail = tail.slice(newline + 1);
  }
  return tail;
}
