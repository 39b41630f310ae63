// One line of an error for a table cell: a message's first line, or the telling line of a failed step's output.

/** The most characters a table's error cell shows. */
export const ONE_LINE_CHARS = 90;

const clip = (line: string, max: number) => {
  const flat = line.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
};

const lines = (text: string) =>
  text
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .split(/\r?\n/)
    .map((l) => l.slice(l.lastIndexOf('\r') + 1).trim())
    .filter((l) => l !== '');

/** A message's first non-blank line, capped: messages lead with what went wrong. */
export function firstLine(message: string, max = ONE_LINE_CHARS): string {
  return clip(lines(message)[0] ?? '', max);
}

/** Lines that name what went wrong. */
const TELLING = /error|exception|fatal|failed|failure|cannot|can't|could not|not found|no such|no module|undefined reference|denied|refused|killed|timed out|unable/i;
/** Lines that only point elsewhere: a log file, a help page, a stack frame, a rule. */
const NOISE = /complete log of this run|^npm (err!|error)\s*$|\[Help \d+\]|re-run maven|for more information about the errors|full stack trace|^at\s|^[-=_*]{3,}$|^\[error\]\s*$|^(error|fatal):?\s*$/i;

/**
 * The line of a failed step's output that says why, capped: the last line naming an error (a
 * traceback's last line, a compiler's `fatal error:`), past pointers to logs and help pages; else
 * the last line.
 */
export function errorLine(output: string, max = ONE_LINE_CHARS): string {
  const all = lines(output);
  const useful = all.filter((l) => !NOISE.test(l));
  return clip(useful.filter((l) => TELLING.test(l)).at(-1) ?? useful.at(-1) ?? all.at(-1) ?? '', max);
}
