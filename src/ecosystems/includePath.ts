import { excerpt } from '../text/excerpt';
import { joinPosixPath, normalizePosixPath, posixDirname } from './posixPath';

export type IncludeResolution = { ok: true; path: string } | { ok: false; reason: string };

/**
 * Where an include (`-r base.txt`) written in `fromFile` points, as a normalised POSIX path relative to
 * the project root (the root `fromFile` is relative to). Refused, with a reason that quotes the include
 * (capped) but never its target's content: an absolute path, a `file:` URL, a drive or UNC path, a NUL,
 * and any path that leaves the root (`../x` from the top). Nothing is read here; a reader on disk must
 * still refuse symbolic links out of the root.
 */
export function resolveInclude(fromFile: string, target: string): IncludeResolution {
  const quoted = excerpt(target);
  if (target.includes('\u0000')) return { ok: false, reason: `${quoted}: a path with a NUL character is not followed` };
  if (target.startsWith('/') || /^[A-Za-z]:[\\/]/.test(target) || target.startsWith('\\\\') || /^file:/i.test(target)) {
    return { ok: false, reason: `${quoted}: an absolute path is outside the project; not followed` };
  }
  const path = joinPosixPath(posixDirname(fromFile), target);
  if (path === '.') return { ok: false, reason: `${quoted}: names the project's folder, not a file; not followed` };
  if (path.startsWith('/') || path === '..' || path.startsWith('../')) {
    return { ok: false, reason: `${quoted}: leaves the project's folder; not followed` };
  }
  return { ok: true, path: normalizePosixPath(path) };
}
