import { ONE_BY_ONE_MAX, type Broke, type TrialComparison, type Verdict } from './types';

/** Trials left to an instance's confirmation, shared by its phantom and bloat checks. */
export interface TrialBudget {
  left: number;
}

export interface NamesConfirmed {
  check: Record<string, Verdict>;
  broke: Record<string, Broke>;
  untried: string[];
  /** Names that broke the project alone but not with the unneeded names gone too: needed only by other, unneeded declarations (unneeded). */
  together: string[];
}

/**
 * Verdicts for names by taking them out: one trial per name where there are at most ONE_BY_ONE_MAX,
 * else by bisection: a group is taken out at once, and where the project still runs alike every name
 * of it is unneeded; where it breaks, it is split in halves, down to single names, whose break is
 * theirs. (A name that is needed only with another gone, an either-or, comes out unneeded alone, as
 * in one-by-one removal.) Then each name that broke the project alone is tried once more with every
 * unneeded name gone too: where the project then runs alike, only another, unneeded declaration
 * needed it (a CMake `find_package` that asks for an apt.txt package nothing else uses), and it is
 * unneeded (`together`). Each trial costs one of the budget; names left when it is spent, or when
 * `tryWithout` answers null (it stopped: a harness fault), are untried. Deterministic: the trials
 * come in the same order for the same answers, so a workflow may run it.
 */
export async function confirmByRemoval(names: readonly string[], tryWithout: (group: string[]) => Promise<TrialComparison | null>, budget: TrialBudget): Promise<NamesConfirmed> {
  const sorted = [...new Set(names)].sort();
  const queue: string[][] = sorted.length > ONE_BY_ONE_MAX ? [sorted] : sorted.map((n) => [n]);
  const check: Record<string, Verdict> = {};
  const broke: Record<string, Broke> = {};
  const untried: string[] = [];
  let stopped = false;
  while (queue.length > 0) {
    const group = queue.shift()!;
    if (stopped || budget.left <= 0) {
      untried.push(...group);
      continue;
    }
    budget.left--;
    const c = await tryWithout(group);
    if (c === null) {
      stopped = true;
      untried.push(...group);
    } else if (c.same) {
      for (const n of group) check[n] = 'unneeded';
    } else if (group.length === 1) {
      check[group[0]!] = 'needed';
      broke[group[0]!] = { how: c.how, excerpt: c.excerpt };
    } else {
      const half = Math.ceil(group.length / 2);
      queue.unshift(group.slice(0, half), group.slice(half));
    }
  }
  const together: string[] = [];
  const unneeded = Object.keys(check).filter((n) => check[n] === 'unneeded').sort();
  for (const n of Object.keys(broke).sort()) {
    if (stopped || unneeded.length === 0 || budget.left <= 0) break;
    budget.left--;
    const c = await tryWithout([n, ...unneeded]);
    if (c === null) stopped = true;
    else if (c.same) {
      check[n] = 'unneeded';
      delete broke[n];
      together.push(n);
    }
  }
  return { check: sortedKeys(check), broke: sortedKeys(broke), untried: untried.sort(), together };
}

function sortedKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]!]));
}
