import { agentsOf, groupBy, languagesOf, type Instance } from './instances';
import type { IntraAgentRow } from './report';
import { intersection, jaccard, sameSet, union } from './sets';
import { mean, median, share } from './stats';

function meanPairwiseJaccard(sets: readonly ReadonlySet<string>[]): number {
  const values: number[] = [];
  for (let x = 0; x < sets.length; x += 1) {
    for (let y = x + 1; y < sets.length; y += 1) values.push(jaccard(sets[x], sets[y]));
  }
  return mean(values) as number;
}

/**
 * M6, for each agent that ran more than one trial: over the tasks where every one of its trials
 * succeeded, the mean pairwise Jaccard of the trials' D1 (mean and median over tasks), how many
 * tasks had all trials declare the identical set (UCR as a share), and the mean size of the union
 * and of the intersection of the trials' sets. The agent's trials are the trial numbers it has in
 * any language; a task missing one of them (or with an error there) does not count.
 */
export function intraAgentAgreement(instances: readonly Instance[]): IntraAgentRow[] {
  const rows: IntraAgentRow[] = [];
  for (const agent of agentsOf(instances)) {
    const own = instances.filter((i) => i.agent === agent);
    const trials = new Set(own.map((i) => i.trial));
    if (trials.size < 2) continue;
    for (const language of languagesOf(own)) {
      const perTask: number[] = [];
      const unions: number[] = [];
      const cores: number[] = [];
      let unanimous = 0;
      for (const runs of groupBy(own.filter((i) => i.language === language), (i) => i.task).values()) {
        if (runs.length !== trials.size || !runs.every((r) => r.success && r.declared !== null)) continue;
        const sets = runs.map((r) => r.declared as ReadonlySet<string>);
        perTask.push(meanPairwiseJaccard(sets));
        unions.push(union(sets).size);
        cores.push(intersection(sets).size);
        if (sets.every((s) => sameSet(s, sets[0]))) unanimous += 1;
      }
      rows.push({
        agent,
        language,
        trials: trials.size,
        tasks: perTask.length,
        jaccard_mean: mean(perTask),
        jaccard_median: median(perTask),
        unanimous,
        ucr: share(unanimous, perTask.length),
        union_mean: mean(unions),
        core_mean: mean(cores),
      });
    }
  }
  return rows;
}
