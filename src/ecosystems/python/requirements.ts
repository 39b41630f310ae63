import { capMessage, excerpt } from '../../text/excerpt';
import { resolveInclude } from '../includePath';
import { ManifestError } from '../manifestError';
import { normalizePythonName } from './pep503';
import { isDirectReference, parseNamedRequirement } from './pep508';
import { normalizePosixPath } from '../posixPath';
import { LogicalLine, logicalLines } from './requirementLines';
import { looksLikeLocation, projectNameOfLocation, splitLocationMarker } from './requirementLocations';
import { parseOptions } from './requirementOptions';

export interface PythonRequirement {
  /** PEP 503 normalised. */
  name: string;
  rawName: string;
  extras: string[];
  /** e.g. `>=1.0,<2` (spaces removed), null when unpinned. */
  specifier: string | null;
  marker: string | null;
  /** Direct reference, VCS or archive URL/path as written; null for index requirements. */
  url: string | null;
  editable: boolean;
  source: { file: string; line: number };
}

export interface ParseResult {
  dependencies: PythonRequirement[];
  warnings: string[];
}

export { ManifestError };

export interface ParseRequirementsOptions {
  /** Name of the file `text` came from; `-r`/`-c` paths are resolved against its directory. */
  fileName: string;
  /**
   * Reads an included file by its resolved POSIX path (relative to the same root as fileName); undefined
   * when absent. It is never asked for a path outside that root: such includes are refused with a warning.
   */
  readInclude?: (path: string) => string | undefined;
}

interface ParseState {
  dependencies: PythonRequirement[];
  names: Set<string>;
  warnings: string[];
  /** Files already parsed, and the chain of files being parsed now (to tell a cycle from a diamond). */
  visited: Set<string>;
  stack: string[];
  readInclude: (path: string) => string | undefined;
}

/**
 * Parses a requirements.txt as pip would, following `-r` includes. Dependencies are deduplicated by
 * normalised name, the first occurrence winning. Throws ManifestError on a line pip would reject.
 */
/** Longer logical lines (continuations joined) are refused before they are parsed. */
export const MAX_LINE_CHARS = 100_000;

export function parseRequirements(text: string, opts: ParseRequirementsOptions): ParseResult {
  const state: ParseState = {
    dependencies: [],
    names: new Set(),
    warnings: [],
    visited: new Set(),
    stack: [],
    readInclude: opts.readInclude ?? (() => undefined),
  };
  parseFile(text, opts.fileName, state);
  return { dependencies: state.dependencies, warnings: state.warnings };
}

function parseFile(text: string, file: string, state: ParseState): void {
  const key = normalizePosixPath(file);
  state.visited.add(key);
  state.stack.push(key);
  for (const line of logicalLines(text)) parseLine(line, file, state);
  state.stack.pop();
}

function parseLine({ line, text }: LogicalLine, file: string, state: ParseState): void {
  const fail = (message: string): never => {
    throw new ManifestError(file, line, message);
  };
  const warn = (message: string) => state.warnings.push(capMessage(`${file}:${line}: ${message}`));
  const source = { file, line };
  // No requirement is this long; the parsers' regular expressions would overflow the stack on it.
  if (text.length > MAX_LINE_CHARS) fail(`a line of ${text.length} characters is too long to be a requirement: "${excerpt(text)}"`);

  // As pip: everything from the first token starting with `-` is options.
  const optionsAt = text.search(/(?:^|\s)-/);
  const requirementText = (optionsAt < 0 ? text : text.slice(0, optionsAt)).trim();
  const { options, stray } = optionsAt < 0 ? { options: [], stray: [] } : attempt(() => parseOptions(text.slice(optionsAt)), fail);
  if (stray.length > 0) warn(`"${excerpt(stray.join(' '))}" after the options is ignored`);

  if (requirementText !== '') {
    for (const option of options) {
      if (!option.known || option.role !== 'perRequirement') warn(`option ${excerpt(option.option)} after a requirement is ignored`);
    }
    const requirement = attempt(() => requirementFromText(requirementText, source, warn), fail);
    if (requirement) add(requirement, state);
    return;
  }

  for (const option of options) {
    if (!option.known) {
      warn(`unknown option ${excerpt(option.option)} ignored`);
      continue;
    }
    const value = option.value ?? '';
    switch (option.role) {
      case 'include':
        includeFile(value, file, line, state, true);
        break;
      case 'constraint':
        includeFile(value, file, line, state, false);
        break;
      case 'editable': {
        const requirement = attempt(() => requirementFromLocation(value, true, source, warn), fail);
        if (requirement) add(requirement, state);
        break;
      }
      case 'global':
        break;
      case 'perRequirement':
        warn(`option ${excerpt(option.option)} without a requirement is ignored`);
        break;
    }
  }
}

function attempt<T>(parse: () => T, fail: (message: string) => never): T {
  try {
    return parse();
  } catch (e) {
    return fail((e as Error).message);
  }
}

function requirementFromText(
  text: string,
  source: PythonRequirement['source'],
  warn: (message: string) => void,
): PythonRequirement | null {
  if (!isDirectReference(text) && looksLikeLocation(text)) return requirementFromLocation(text, false, source, warn);
  const parsed = parseNamedRequirement(text);
  return { ...parsed, name: normalizePythonName(parsed.rawName), editable: false, source };
}

function requirementFromLocation(
  text: string,
  editable: boolean,
  source: PythonRequirement['source'],
  warn: (message: string) => void,
): PythonRequirement | null {
  const { location, marker } = splitLocationMarker(text);
  const named = projectNameOfLocation(location);
  if (named === null) {
    warn(`"${excerpt(location)}" names no project (no #egg= fragment, not a wheel); skipped`);
    return null;
  }
  return {
    name: normalizePythonName(named.rawName),
    rawName: named.rawName,
    extras: named.extras,
    specifier: null,
    marker,
    url: location,
    editable,
    source,
  };
}

function add(requirement: PythonRequirement, state: ParseState): void {
  if (state.names.has(requirement.name)) return;
  state.names.add(requirement.name);
  state.dependencies.push(requirement);
}

// `-r` files add their requirements; `-c` files must exist (pip fails otherwise) but declare nothing.
// An include that leaves the project (absolute, `..` above the root, remote) is not read: a warning.
function includeFile(target: string, file: string, line: number, state: ParseState, addsRequirements: boolean): void {
  const option = addsRequirements ? '-r' : '-c';
  const warn = (message: string) => state.warnings.push(capMessage(`${file}:${line}: ${option} ${message}`));
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(target)) {
    warn(`${excerpt(target)}: remote requirement files are not followed`);
    return;
  }
  const resolved = resolveInclude(file, target);
  if (!resolved.ok) {
    warn(resolved.reason);
    return;
  }
  const path = resolved.path;
  if (addsRequirements && state.visited.has(path)) {
    if (state.stack.includes(path)) state.warnings.push(capMessage(`${file}:${line}: include cycle through ${excerpt(path)} ignored`));
    return;
  }
  const text = state.readInclude(path);
  // typeof, not === undefined: a reader backed by a plain object would return its prototype's members.
  if (typeof text !== 'string') throw new ManifestError(file, line, `${option} ${excerpt(target)}: file ${excerpt(path)} not found`);
  if (addsRequirements) parseFile(text, path, state);
}
