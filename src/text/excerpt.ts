// Agents' text (manifests, names, answers) may be huge or hostile: every piece of it that a message
// quotes is capped here, and so is every message as a whole.

/** The most characters of manifest text one message quotes. */
export const EXCERPT_CHARS = 200;
/** The most characters of one error or warning message, quotes and all. */
export const MESSAGE_CHARS = 2_000;

/** `text` when short, else its first `max` characters and `… (N more characters)`. */
export function excerpt(text: string, max: number = EXCERPT_CHARS): string {
  if (text.length <= max) return text;
  // Never cut a surrogate pair in half.
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}… (${text.length - end} more characters)`;
}

/** A whole error or warning message, capped at MESSAGE_CHARS. */
export function capMessage(message: string): string {
  return excerpt(message, MESSAGE_CHARS);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
