import type { ReadmeInstanceRef } from '../../../src/domain/readme';
import { selectInstances, testRepos } from '../../../src/readme/selection';

const ref = (repo: string, name: string): ReadmeInstanceRef => ({ name, repo, repoFolder: `error_gen_${repo}` });
const all = ['a_x', 'b_y', 'c_z', 'd_w', 'e_v'].flatMap((repo) => [ref(repo, `${repo}_error_readme_1`), ref(repo, `${repo}_error_readme_1_only_E1`)]);

test('all, a list of names (in data-set order), and repositories with a limit', () => {
  expect(selectInstances(all, 'all')).toHaveLength(10);
  expect(selectInstances(all, ['c_z_error_readme_1', 'a_x_error_readme_1']).map((r) => r.name)).toEqual(['a_x_error_readme_1', 'c_z_error_readme_1']);
  expect(selectInstances(all, { repos: ['b_y', 'd_w'], limit: 3 }).map((r) => r.name)).toEqual(['b_y_error_readme_1', 'b_y_error_readme_1_only_E1', 'd_w_error_readme_1']);
});

test('a name or a repository not in the data set is an error naming it', () => {
  expect(() => selectInstances(all, ['a_x_error_readme_1', 'nope'])).toThrow('not in the data set: nope');
  expect(() => selectInstances(all, { repos: ['zz_top'] })).toThrow('no instances of repository zz_top');
});

describe('the held-out split is by repository', () => {
  const split = (part: 'test' | 'train', seed = 7) => selectInstances(all, 'all', { by: 'repo', seed, testShare: 0.4, part });

  test('test and train partition the instances, and no repository is on both sides', () => {
    const test = split('test');
    const train = split('train');
    expect(test.length + train.length).toBe(all.length);
    const testRepoSet = new Set(test.map((r) => r.repo));
    expect(train.some((r) => testRepoSet.has(r.repo))).toBe(false);
    // ceil(0.4 x 5) = 2 repositories, with all of their instances.
    expect(testRepoSet.size).toBe(2);
    expect(test).toHaveLength(4);
  });

  test('the same seed gives the same split; another seed may give another', () => {
    expect(split('test', 7)).toEqual(split('test', 7));
    const seeds = Array.from({ length: 10 }, (_, s) => [...testRepos(all.map((r) => r.repo), s, 0.4)].sort().join(','));
    expect(new Set(seeds).size).toBeGreaterThan(1);
  });
});
