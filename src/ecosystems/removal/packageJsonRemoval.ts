import type { ProjectFiles } from '../../domain/files';
import { removalOf, type FileRemoval, type Removal } from './removal';

const MANIFEST = 'package.json';

/**
 * package.json without the given names in `dependencies` (npm names as written, as D1 has them). The
 * file is written back with the indentation it had (two spaces where none can be seen) and its final
 * newline; key order is kept. npm install then prunes them. A name not in `dependencies`, or a
 * package.json that is not a JSON object, is not found.
 */
export function withoutNpmDependencies(files: ProjectFiles, names: readonly string[]): Removal {
  const text = files[MANIFEST];
  if (typeof text !== 'string') return removalOf(files, {}, names, []);
  const r = withoutDependencyKeys(text, names);
  return removalOf(files, r.removed.length > 0 ? { [MANIFEST]: r.text } : {}, names, r.removed);
}

export function withoutDependencyKeys(text: string, names: readonly string[]): FileRemoval {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  let manifest: unknown;
  try {
    manifest = JSON.parse(text.slice(bom.length));
  } catch {
    return { text, removed: [] };
  }
  const deps = isObject(manifest) ? manifest.dependencies : undefined;
  if (!isObject(deps)) return { text, removed: [] };
  const removed = names.filter((n) => Object.hasOwn(deps, n));
  if (removed.length === 0) return { text, removed };
  const kept = Object.fromEntries(Object.entries(deps).filter(([k]) => !removed.includes(k)));
  const out = { ...(manifest as Record<string, unknown>), dependencies: kept };
  const indent = /^[ \t]*\{\s*\n([ \t]+)"/.exec(text.slice(bom.length))?.[1] ?? '  ';
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const body = JSON.stringify(out, null, indent).replace(/\n/g, newline);
  return { text: bom + body + (/\r?\n$/.test(text) ? newline : ''), removed };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
