/** One logical line of a requirements file: continuations joined, comment removed, trimmed, never empty. */
export interface LogicalLine {
  /** 1-based number of the physical line where the logical line starts. */
  line: number;
  text: string;
}

// As pip: a `#` starts a comment only at the line start or after whitespace, so `#egg=` in a URL stays.
const COMMENT = /(^|\s)#.*$/;

/** Splits requirements-file text the way pip's req_file does (join_lines, then ignore_comments). */
export function logicalLines(text: string): LogicalLine[] {
  const physical = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const joined: LogicalLine[] = [];
  let pending: string[] = [];
  let pendingStart = 0;

  physical.forEach((raw, index) => {
    const lineNumber = index + 1;
    const isComment = COMMENT.test(raw);
    const trimmedEnd = raw.trimEnd();
    if (!isComment && trimmedEnd.endsWith('\\')) {
      if (pending.length === 0) pendingStart = lineNumber;
      pending.push(trimmedEnd.slice(0, -1));
      return;
    }
    // A comment line inside a continuation ends it; the leading space keeps the comment detectable.
    const piece = isComment ? ` ${raw}` : raw;
    if (pending.length > 0) {
      joined.push({ line: pendingStart, text: pending.join('') + piece });
      pending = [];
    } else {
      joined.push({ line: lineNumber, text: piece });
    }
  });
  if (pending.length > 0) joined.push({ line: pendingStart, text: pending.join('') });

  return joined
    .map(({ line, text: content }) => ({ line, text: content.replace(COMMENT, '').trim() }))
    .filter((l) => l.text !== '');
}
