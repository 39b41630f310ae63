// Our own POSIX path helpers, shared by every ecosystem: node:path is a Node builtin, and src/ecosystems is pure code that
// workflows may import, where Node builtins are not allowed.

/** Collapses `//`, `.` and `..` segments; `..` never climbs above `/`; drops a trailing slash. */
export function normalizePosixPath(path: string): string {
  const absolute = path.startsWith('/');
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length > 0 && segments[segments.length - 1] !== '..') segments.pop();
      else if (!absolute) segments.push('..');
      continue;
    }
    segments.push(segment);
  }
  const body = segments.join('/');
  if (absolute) return `/${body}`;
  return body === '' ? '.' : body;
}

/** Joins then normalises; an absolute `child` replaces `base`. */
export function joinPosixPath(base: string, child: string): string {
  return normalizePosixPath(child.startsWith('/') ? child : `${base}/${child}`);
}

export function posixDirname(path: string): string {
  const normalized = normalizePosixPath(path);
  const slash = normalized.lastIndexOf('/');
  if (slash < 0) return '.';
  return slash === 0 ? '/' : normalized.slice(0, slash);
}
