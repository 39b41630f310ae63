import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { describeIssues } from '../text/zodIssues';

/** The shipped copy of upstream's m5/c0_repo_baseline_totals.json (data/researchenvbench/NOTICE.md). */
export const DEFAULT_C0_TOTALS_FILE = findUp(__dirname, 'data/researchenvbench/c0_repo_baseline_totals.json');

function findUp(start: string, relative: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, relative))) return path.join(dir, relative);
    if (path.dirname(dir) === dir) return path.resolve(__dirname, '../..', relative);
  }
}

const C0TotalsFile = z.object({ repos: z.record(z.string(), z.union([z.number(), z.string()])) });

/** `{"repos": {"owner/name": count}}`, upstream's format; counts given as numeric strings are read as numbers. */
export function parseC0Totals(text: string, source: string): Record<string, number> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${source}: not JSON (${(err as Error).message})`);
  }
  const parsed = C0TotalsFile.safeParse(value);
  if (!parsed.success) throw new Error(`${source}: ${describeIssues(parsed.error).join('; ')}`);
  const out: Record<string, number> = {};
  for (const [repo, count] of Object.entries(parsed.data.repos)) {
    const n = typeof count === 'number' ? count : Number(count.trim());
    if (!Number.isFinite(n)) throw new Error(`${source}: field repos.${repo}: not a number (${JSON.stringify(count)})`);
    out[repo] = n;
  }
  return out;
}

export function readC0Totals(file: string = DEFAULT_C0_TOTALS_FILE): Record<string, number> {
  return parseC0Totals(fs.readFileSync(file, 'utf8'), file);
}
