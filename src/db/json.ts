/**
 * The one place where jsonb columns are encoded and decoded. Values are written as JSON text (both
 * drivers accept it for jsonb); on reading, pg hands back the parsed value while PGlite may hand back
 * the text, so both are accepted. Every value stored in a jsonb column here is an object, so a
 * string read back is always JSON text, never a stored string.
 */
export function encodeJson<T>(value: T): string {
  return JSON.stringify(value);
}

export function decodeJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** For nullable jsonb columns. */
export function decodeJsonOrNull<T>(value: unknown): T | null {
  return value === null || value === undefined ? null : decodeJson<T>(value);
}
