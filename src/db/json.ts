/**
 * The one place where jsonb columns are encoded and decoded. Values are written as JSON text (both
 * drivers accept it for jsonb); on reading, pg hands back the parsed value while PGlite may hand back
 * the text, so both are accepted. Every value stored in a jsonb column here is an object, so a
 * string read back is always JSON text, never a stored string.
 *
 * The text is branded with the type it holds (`JsonText<T>`), and each column of src/db/schema.ts
 * says which type that is: a column accepts only `encodeJson` of its row type, and `decodeJson` of
 * what it reads gives that type back.
 */
declare const holds: unique symbol;

/** JSON text of a value of type T. */
export type JsonText<T> = string & { readonly [holds]: T };

/** What a jsonb column of T reads as: the value (pg) or its JSON text (PGlite). */
export type StoredJson<T> = T | JsonText<T>;

export function encodeJson<T>(value: T): JsonText<T> {
  return JSON.stringify(value) as JsonText<T>;
}

export function decodeJson<T>(value: StoredJson<T>): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** For nullable jsonb columns. */
export function decodeJsonOrNull<T>(value: StoredJson<T> | null | undefined): T | null {
  return value === null || value === undefined ? null : decodeJson<T>(value);
}
