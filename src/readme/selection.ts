import { createHash } from 'node:crypto';
import type { ReadmeInstanceRef } from '../domain/readme';

/** Which instances a study takes: all, a list of names, or some repositories' (at most `limit`, in data-set order). */
export type InstanceSelection = 'all' | string[] | { repos: string[]; limit?: number };

/**
 * A held-out split by repository: instances of one repository share injected errors and many share
 * identical READMEs, so a split by instance leaks the test set into training. Each repository goes
 * to `test` when its hash under the seed falls in the first `testShare` of the order.
 */
export interface RepoSplit {
  by: 'repo';
  seed: number;
  testShare: number;
  part: 'test' | 'train';
}

/** The repositories of the test part: the ceil(testShare x n) first, ordered by sha256(seed:repo). */
export function testRepos(repos: readonly string[], seed: number, testShare: number): Set<string> {
  const unique = [...new Set(repos)];
  const key = (r: string) => createHash('sha256').update(`${seed}:${r}`).digest('hex');
  const ordered = unique.map((r) => [key(r), r] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return new Set(ordered.slice(0, Math.ceil(testShare * unique.length)).map(([, r]) => r));
}

/** The selected instances, in data-set order; a name or repository that is not in the data set is an error naming it. */
export function selectInstances(all: readonly ReadmeInstanceRef[], selection: InstanceSelection, split?: RepoSplit): ReadmeInstanceRef[] {
  let picked: ReadmeInstanceRef[];
  if (selection === 'all') picked = [...all];
  else if (Array.isArray(selection)) {
    const byName = new Map(all.map((r) => [r.name, r]));
    const unknown = selection.filter((n) => !byName.has(n));
    if (unknown.length > 0) throw new Error(`not in the data set: ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''}`);
    picked = all.filter((r) => selection.includes(r.name));
  } else {
    const known = new Set(all.map((r) => r.repo));
    const unknown = selection.repos.filter((r) => !known.has(r));
    if (unknown.length > 0) throw new Error(`no instances of repositor${unknown.length > 1 ? 'ies' : 'y'} ${unknown.join(', ')} in the data set`);
    picked = all.filter((r) => selection.repos.includes(r.repo));
  }
  if (split) {
    const test = testRepos(all.map((r) => r.repo), split.seed, split.testShare);
    picked = picked.filter((r) => test.has(r.repo) === (split.part === 'test'));
  }
  if (!Array.isArray(selection) && selection !== 'all' && selection.limit !== undefined) picked = picked.slice(0, selection.limit);
  return picked;
}
