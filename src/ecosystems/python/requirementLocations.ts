import { excerpt } from '../../text/excerpt';
import { isValidProjectName, parseExtras } from './pep508';

// Requirements given by location rather than by name: bare URLs, VCS URLs, archive and wheel paths,
// local directories. Their project name is known only from `#egg=` or a wheel file name.

const ARCHIVE = /\.(?:whl|zip|tar\.gz|tgz|tar\.bz2|tbz|tar\.xz|txz|tar)$/i;

/** True when the requirement text names a location (URL, VCS URL, path or archive) instead of a project. */
export function looksLikeLocation(text: string): boolean {
  const first = text.trim().split(/[\s;]/)[0];
  const withoutFragment = first.split('#')[0];
  return (
    /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(first) ||
    /^(?:git|hg|svn|bzr)\+/i.test(first) ||
    /^file:/i.test(first) ||
    /^[.~/\\]/.test(first) ||
    /[/\\]/.test(withoutFragment) ||
    ARCHIVE.test(withoutFragment)
  );
}

/** pip splits the marker off a URL at a `;` with whitespace on either side, since URLs may contain `;`. */
export function splitLocationMarker(text: string): { location: string; marker: string | null } {
  const trimmed = text.trim();
  const at = trimmed.search(/\s;|;\s/);
  if (at < 0) return { location: trimmed, marker: null };
  const marker = trimmed.slice(at).trim().slice(1).trim();
  return { location: trimmed.slice(0, at).trim(), marker: marker === '' ? null : marker };
}

export interface LocationName {
  rawName: string;
  extras: string[];
}

/** The project named by `#egg=name[extras]` or by a wheel file name; null when the location names none. Throws on an invalid egg name. */
export function projectNameOfLocation(location: string): LocationName | null {
  const egg = /[#&]egg=([^&#\s]+)/.exec(location);
  if (egg) return parseEgg(egg[1]);
  const wheelName = wheelProjectName(location);
  return wheelName === null ? null : { rawName: wheelName, extras: [] };
}

function parseEgg(value: string): LocationName {
  const bracket = value.indexOf('[');
  const rawName = bracket < 0 ? value : value.slice(0, bracket);
  if (!isValidProjectName(rawName)) throw new Error(`invalid project name "${excerpt(rawName)}" in #egg=`);
  const extras = bracket < 0 ? [] : parseExtras(value.slice(bracket + 1).replace(/\]$/, ''));
  return { rawName, extras };
}

// Wheel file names are `{name}-{version}(-{build})?-{python}-{abi}-{platform}.whl`; the name has no `-`.
function wheelProjectName(location: string): string | null {
  const path = location.split(/[?#]/)[0];
  const fileName = decodeUriSafely(path.split(/[/\\]/).pop() ?? '');
  if (!/\.whl$/i.test(fileName)) return null;
  const name = fileName.split('-')[0];
  return isValidProjectName(name) ? name : null;
}

function decodeUriSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
