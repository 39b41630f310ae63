import * as fs from 'node:fs';
import * as path from 'node:path';
import { isObject, type Json, type JsonObject } from './researchenvbenchValues';

/**
 * A results file as upstream's read_json sees it: absent, unreadable (truncated, not JSON), or a
 * value. Upstream takes JSON null and an empty object for absent too (its `if not res`).
 */
export type UpstreamFile =
  | { kind: 'absent' }
  | { kind: 'invalid'; problem: string }
  | { kind: 'object'; value: JsonObject };

export function readUpstreamJson(file: string): UpstreamFile {
  if (!fs.existsSync(file)) return { kind: 'absent' };
  let value: Json;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8')) as Json;
  } catch (err) {
    return { kind: 'invalid', problem: `${file}: not JSON (${(err as Error).message})` };
  }
  if (value === null || (isObject(value) && Object.keys(value).length === 0)) return { kind: 'absent' };
  // Upstream would crash on `.get` of a list or a string; here it is a result that cannot be read.
  if (!isObject(value)) return { kind: 'invalid', problem: `${file}: not a JSON object` };
  return { kind: 'object', value };
}

export function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** Every folder at or under `root` that holds job_summary.json (upstream: rglob), sorted. */
export function findJobDirs(root: string): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    const entries = fs.readdirSync(dir, { withFileTypes: true });
    if (entries.some((e) => e.isFile() && e.name === 'job_summary.json')) out.push(dir);
    for (const e of entries) if (e.isDirectory()) visit(path.join(dir, e.name));
  };
  visit(root);
  return out.sort();
}
