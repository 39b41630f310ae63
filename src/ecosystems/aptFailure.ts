import type { ErrorClass } from '../domain/instance';

/** The class of a failed `apt-get install` of the packages an agent listed in apt.txt. */
export function classifyAptFailure(f: { exitCode: number | null; timedOut: boolean; output: string }): ErrorClass {
  if (f.timedOut) return 'Timeout';
  if (/Unable to locate package|has no installation candidate|Package '?[^ ]+'? has no installation candidate|is not available, but is referred to/.test(f.output)) return 'MissingDep';
  if (/Temporary failure resolving|Could not resolve|Failed to fetch|Connection (timed out|refused)|Unable to connect/.test(f.output)) return 'FetchFail';
  return 'Other';
}
