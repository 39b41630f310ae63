import type { InstalledDistribution } from './record';

/**
 * The JSON of dist_index.py (DIST_INDEX_SCRIPT in src/activities/runners/python.ts): each installed distribution
 * with its RECORD's files. Both the gap protocol's D3 and readiness's setup precision read it.
 */
export function parseDistIndex(text: string, file: string): InstalledDistribution[] {
  let data: unknown;
  try {
    data = JSON.parse(text.trim().split('\n').at(-1) ?? '');
  } catch {
    throw new Error(`${file}: not the distribution index's JSON: ${JSON.stringify(text.slice(0, 200))}`);
  }
  if (!Array.isArray(data)) throw new Error(`${file}: not a JSON array`);
  return data.map((d: unknown, i) => {
    const { name, version, location, files } = (d ?? {}) as Record<string, unknown>;
    if (typeof name !== 'string' || typeof version !== 'string' || typeof location !== 'string' || !Array.isArray(files)) {
      throw new Error(`${file}: entry ${i} lacks a string name, version, location or a files list`);
    }
    return { name, version, location, files: files.filter((f): f is string => typeof f === 'string') };
  });
}
