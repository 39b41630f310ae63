/**
 * A manifest the package manager itself would reject. The message reads `file:line: reason`, or
 * `file: reason` when the line is unknown (line null or 0).
 */
export class ManifestError extends Error {
  readonly reason: string;

  constructor(
    readonly file: string,
    readonly line: number | null,
    reason: string,
  ) {
    super(line ? `${file}:${line}: ${reason}` : `${file}: ${reason}`);
    this.name = 'ManifestError';
    this.reason = reason;
  }
}

/** The 1-based line of a character offset. */
export function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
