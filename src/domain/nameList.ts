import { excerpt } from '../text/excerpt';

/**
 * Dependency names as they travel through workflow history. History has hard size limits (a workflow
 * task over the gRPC message limit fails forever), and an agent controls what its manifest names, so
 * every name is capped and a long list travels as a blob reference, resolved when the record is stored.
 */

/** Longer names are cut: no real package name comes close (PyPI and npm allow 214 characters). */
export const MAX_NAME_CHARS = 256;

/** A list whose JSON is longer than this goes to a blob; history carries its hash and length. */
export const MAX_INLINE_LIST_BYTES = 16 * 1024;

export interface StoredNames {
  blob: string;
  count: number;
}

export type NameList = string[] | StoredNames;

export function isStoredNames(list: NameList | null | undefined): list is StoredNames {
  return list != null && !Array.isArray(list) && typeof list.blob === 'string';
}

/** A name cut to MAX_NAME_CHARS, saying how much was cut, so two long names stay told apart by length. */
export function capName(name: string): string {
  return excerpt(name, MAX_NAME_CHARS);
}

/** Caps every name; whether the capped list may travel inline. */
export function boundNames(names: string[]): { names: string[]; inline: boolean } {
  const capped = names.map(capName);
  return { names: capped, inline: JSON.stringify(capped).length <= MAX_INLINE_LIST_BYTES };
}
