import { capMessage, excerpt } from '../text/excerpt';

/**
 * A manifest the package manager itself would reject. The message reads `file:line: reason`, or
 * `file: reason` when the line is unknown (line null or 0). The file name is capped and so is the
 * whole message (see excerpt.ts): a reason may quote manifest text, which can be megabytes long.
 */
export class ManifestError extends Error {
  readonly reason: string;

  constructor(
    readonly file: string,
    readonly line: number | null,
    reason: string,
  ) {
    const capped = capMessage(reason);
    super(capMessage(line ? `${excerpt(file)}:${line}: ${capped}` : `${excerpt(file)}: ${capped}`));
    this.name = 'ManifestError';
    this.reason = capped;
  }
}

/** The 1-based line of a character offset. */
export function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * No real pom.xml or CMakeLists.txt comes near this; their parsers' regular expressions can exhaust
 * V8's backtracking stack on a multi-megabyte token, so a larger file is refused before it is parsed.
 */
export const MAX_MANIFEST_CHARS = 4_000_000;

export function assertManifestSize(text: string, fileName: string): void {
  if (text.length > MAX_MANIFEST_CHARS) {
    throw new ManifestError(fileName, null, `${text.length} characters, more than any manifest (the limit is ${MAX_MANIFEST_CHARS}); not parsed`);
  }
}
