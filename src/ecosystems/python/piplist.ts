import { normalizePythonName } from './pep503';

export interface InstalledPackage {
  name: string;
  version: string;
}

/**
 * Parses `pip list --format=json`. Names are kept as pip prints them. When pip's stderr was mixed in
 * (warnings, `[notice]` lines), the one line that is a JSON array is used.
 */
export function parsePipListJson(text: string): InstalledPackage[] {
  const data = parseJsonArray(text);
  return data.map((entry, i) => {
    const { name, version } = (entry ?? {}) as { name?: unknown; version?: unknown };
    if (typeof name !== 'string' || typeof version !== 'string' || name === '') {
      throw new Error(`pip list JSON: entry ${i} has no string "name" and "version": ${JSON.stringify(entry)}`);
    }
    return { name, version };
  });
}

function parseJsonArray(text: string): unknown[] {
  const candidates = [text.trim(), ...text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.startsWith('['))];
  for (const candidate of candidates) {
    try {
      const parsed: unknown = JSON.parse(candidate);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // try the next candidate
    }
  }
  const preview = text.trim().slice(0, 200);
  throw new Error(`pip list output is not a JSON array (expected \`pip list --format=json\`): ${JSON.stringify(preview)}`);
}

/** Sorted PEP 503 names present in `after` but not in `before`, or present in both with another version. */
export function diffInstalled(before: InstalledPackage[], after: InstalledPackage[]): string[] {
  const versionsBefore = new Map(before.map((p) => [normalizePythonName(p.name), p.version]));
  const changed = new Set<string>();
  for (const pkg of after) {
    const name = normalizePythonName(pkg.name);
    if (versionsBefore.get(name) !== pkg.version) changed.add(name);
  }
  return [...changed].sort();
}
