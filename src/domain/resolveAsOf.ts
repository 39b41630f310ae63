import type { Language } from './instance';

/**
 * Resolution as of a date (the study file's `resolve_as_of: YYYY-MM-DD`, docs/resolution.md): the
 * package managers see the registries as they stood at 00:00 UTC of that day. Pure: no clock.
 */

/** Why a `resolve_as_of` value is not a date, or null where it is one (YYYY-MM-DD, a real calendar day). */
export function resolveAsOfProblem(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return `a date as YYYY-MM-DD (such as 2024-06-01), not "${value}"`;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return `"${value}" is not a day of the calendar`;
  // Before npm's registry and PyPI's upload times, a date resolves nothing.
  if (year < 2010) return `a date from 2010 on, not "${value}"`;
  return null;
}

/** The instant the package managers are given: the start of the day in UTC (`2023-06-01T00:00:00Z`). */
export function resolutionCutoff(date: string): string {
  return `${date}T00:00:00Z`;
}

/** The pip that honours a date (`--uploaded-prior-to`, pip 26.0 on): installed for the harness, outside the venv. */
export const DATED_PIP = { version: '26.0.1', sha256: 'bdb1b08f4274833d62c1aa29e20907365a2ceb950410df15fc9521bad440122b' } as const;

/**
 * How each language's resolution is pinned to the date; null where it is not (C++: CMake resolves
 * nothing, apt is the image's Debian release). Maven: a view of the repository the harness serves in
 * the sandbox, without the versions published on or after the date (src/activities/runners/mavenAsOf.ts).
 */
export const RESOLVED_AS_OF_BY: Record<Language, string | null> = {
  python: `pip ${DATED_PIP.version} --uploaded-prior-to`,
  javascript: 'npm --before',
  java: 'maven date-filtered mirror',
  cpp: null,
};
