/** `hash<TAB>path` lines as TRACKED_FILES_COMMAND prints them, to a map path -> hash. */
export function parseTrackedFiles(text: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const line of text.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0) files.set(line.slice(tab + 1), line.slice(0, tab));
  }
  return files;
}

/** The repository's files the session changed or removed (files it added are its own: a venv, outputs). */
export function trackedFileViolations(before: Map<string, string>, after: Map<string, string>): { path: string; change: 'modified' | 'deleted' }[] {
  const out: { path: string; change: 'modified' | 'deleted' }[] = [];
  for (const [p, hash] of [...before].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const now = after.get(p);
    if (now === undefined) out.push({ path: p, change: 'deleted' });
    else if (now !== hash) out.push({ path: p, change: 'modified' });
  }
  return out;
}
