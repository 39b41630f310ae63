import { normalizePythonName } from './pep503';
import { normalizeSpecifierSet } from './pep440';

/** A PEP 508 requirement that starts with a project name (plain or `name @ url`). */
export interface NamedRequirement {
  rawName: string;
  /** PEP 685: extras are compared normalised, so they are stored that way. */
  extras: string[];
  /** Clauses joined by `,` without spaces, e.g. `>=1.0,<2`. */
  specifier: string | null;
  marker: string | null;
  url: string | null;
}

const PROJECT_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?/;
const URL_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

export function isValidProjectName(name: string): boolean {
  const match = PROJECT_NAME.exec(name);
  return match !== null && match[0] === name;
}

/** True when the text is `name @ ...` or `name[extras] @ ...`. */
export function isDirectReference(text: string): boolean {
  return /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?\s*(?:\[[^\]]*\])?\s*@/.test(text.trim());
}

export function parseExtras(inner: string): string[] {
  if (inner.trim() === '') return [];
  return inner.split(',').map((extra) => {
    const name = extra.trim();
    if (!isValidProjectName(name)) throw new Error(`invalid extra name "${name}"`);
    return normalizePythonName(name);
  });
}

/** Parses one requirement such as `Django[argon2] >= 4.2, < 5 ; python_version >= "3.10"`; throws an Error saying why not. */
export function parseNamedRequirement(text: string): NamedRequirement {
  let rest = text.trim();
  const name = PROJECT_NAME.exec(rest);
  if (!name) throw new Error(`expected a project name at "${rest}"`);
  const rawName = name[0];
  rest = rest.slice(rawName.length).trimStart();

  let extras: string[] = [];
  if (rest.startsWith('[')) {
    const close = rest.indexOf(']');
    if (close < 0) throw new Error(`unclosed "[" in extras of "${rawName}"`);
    extras = parseExtras(rest.slice(1, close));
    rest = rest.slice(close + 1).trimStart();
  }

  if (rest.startsWith('@')) return { rawName, extras, specifier: null, ...parseUrlAndMarker(rest.slice(1), rawName) };

  const semicolon = rest.indexOf(';');
  const marker = semicolon < 0 ? null : parseMarker(rest.slice(semicolon + 1), rawName);
  let specifierText = (semicolon < 0 ? rest : rest.slice(0, semicolon)).trim();
  if (specifierText.startsWith('(')) {
    if (!specifierText.endsWith(')')) throw new Error(`unclosed "(" in version of "${rawName}"`);
    specifierText = specifierText.slice(1, -1).trim();
  } else if (specifierText !== '' && !/^[<>=!~]/.test(specifierText)) {
    throw new Error(`expected a version specifier, ";" or the end after "${rawName}", found "${specifierText}"`);
  }
  const specifier = specifierText === '' ? null : normalizeSpecifierSet(specifierText);
  return { rawName, extras, specifier, marker, url: null };
}

// PEP 508: after a URL, the marker's `;` must be preceded by whitespace (a URL may contain `;`).
function parseUrlAndMarker(text: string, rawName: string): { url: string; marker: string | null } {
  const rest = text.trim();
  const markerAt = rest.search(/\s;/);
  const url = (markerAt < 0 ? rest : rest.slice(0, markerAt)).trim();
  if (url === '' || /\s/.test(url) || !URL_SCHEME.test(url)) {
    throw new Error(`invalid URL "${url}" in direct reference for "${rawName}"`);
  }
  const marker = markerAt < 0 ? null : parseMarker(rest.slice(markerAt).trim().slice(1), rawName);
  return { url, marker };
}

// The marker is kept as text: deciding whether it applies needs the target interpreter.
function parseMarker(text: string, rawName: string): string {
  const marker = text.trim();
  if (marker === '') throw new Error(`empty environment marker after ";" for "${rawName}"`);
  return marker;
}
