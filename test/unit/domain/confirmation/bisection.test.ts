import { confirmByRemoval } from '../../../../src/domain/confirmation/bisection';
import type { TrialComparison } from '../../../../src/domain/confirmation/types';

/** A project that breaks (its build) whenever one of `needed` is taken out. */
function projectNeeding(needed: string[]) {
  const trials: string[][] = [];
  const tryWithout = async (group: string[]): Promise<TrialComparison> => {
    trials.push(group);
    const hit = group.find((n) => needed.includes(n));
    return hit ? { same: false, how: 'build-failed', excerpt: `no ${hit}` } : { same: true };
  };
  return { trials, tryWithout };
}

describe('confirmation by removal', () => {
  test('up to eight names: one trial each, in name order', async () => {
    const p = projectNeeding(['b']);
    const r = await confirmByRemoval(['c', 'b', 'a'], p.tryWithout, { left: 10 });
    // b once more with the unneeded ones gone too: still broken, so needed by the project itself.
    expect(p.trials).toEqual([['a'], ['b'], ['c'], ['b', 'a', 'c']]);
    expect(r).toEqual({ check: { a: 'unneeded', b: 'needed', c: 'unneeded' }, broke: { b: { how: 'build-failed', excerpt: 'no b' } }, untried: [], together: [] });
  });

  test('more than eight: one trial for a group that still works', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `n${String(i).padStart(2, '0')}`);
    const p = projectNeeding([]);
    const r = await confirmByRemoval(names, p.tryWithout, { left: 5 });
    expect(p.trials).toHaveLength(1);
    expect(Object.values(r.check)).toEqual(Array(20).fill('unneeded'));
  });

  test('more than eight with one needed: bisection finds it in about log2 n steps', async () => {
    const names = Array.from({ length: 16 }, (_, i) => `n${String(i).padStart(2, '0')}`);
    const p = projectNeeding(['n05']);
    const budget = { left: 100 };
    const r = await confirmByRemoval(names, p.tryWithout, budget);
    expect(r.check.n05).toBe('needed');
    expect(Object.entries(r.check).filter(([, v]) => v === 'unneeded')).toHaveLength(15);
    // n00-n15 breaks; n00-n07 breaks; n00-n03 works; n04-n07 breaks; n04-n05 breaks; n04 works; n05 breaks; n06-n07 works; n08-n15 works.
    expect(p.trials.map((t) => t.length)).toEqual([16, 8, 4, 4, 2, 1, 1, 2, 8, 16]);
    expect(budget.left).toBe(100 - 10);
  });

  test('a spent budget leaves the rest untried; a stopped trial (null) too', async () => {
    const p = projectNeeding([]);
    const budget = { left: 2 };
    expect(await confirmByRemoval(['a', 'b', 'c'], p.tryWithout, budget)).toEqual({ check: { a: 'unneeded', b: 'unneeded' }, broke: {}, untried: ['c'], together: [] });
    let calls = 0;
    const stopping = async (): Promise<TrialComparison | null> => (++calls === 2 ? null : { same: true });
    expect(await confirmByRemoval(['a', 'b', 'c'], stopping, { left: 9 })).toEqual({ check: { a: 'unneeded' }, broke: {}, untried: ['b', 'c'], together: [] });
    expect(calls).toBe(2);
  });

  test('a name needed only by another, unneeded declaration (an apt.txt package its find_package asks for) is unneeded with it gone too', async () => {
    // libsqlite3-dev alone: configure fails (find_package(SQLite3 REQUIRED) still asks); with sqlite3 gone too it builds.
    const trials: string[][] = [];
    const tryWithout = async (group: string[]): Promise<TrialComparison> => {
      trials.push(group);
      if (group.includes('libcurl4-openssl-dev')) return { same: false, how: 'build-failed', excerpt: 'Could NOT find CURL' };
      if (group.includes('libsqlite3-dev') && !group.includes('sqlite3')) return { same: false, how: 'build-failed', excerpt: 'Could NOT find SQLite3' };
      return { same: true };
    };
    const r = await confirmByRemoval(['libcurl4-openssl-dev', 'libsqlite3-dev', 'sqlite3'], tryWithout, { left: 10 });
    expect(r).toEqual({
      check: { 'libcurl4-openssl-dev': 'needed', 'libsqlite3-dev': 'unneeded', sqlite3: 'unneeded' },
      broke: { 'libcurl4-openssl-dev': { how: 'build-failed', excerpt: 'Could NOT find CURL' } },
      untried: [],
      together: ['libsqlite3-dev'],
    });
    expect(trials.slice(3)).toEqual([['libcurl4-openssl-dev', 'sqlite3'], ['libsqlite3-dev', 'sqlite3']]);
  });
});
