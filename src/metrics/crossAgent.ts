import type { Language } from '../domain/instance';
import { agentsOf, groupBy, languagesOf, type Instance } from './instances';
import type { CrossAgentRow, Rate } from './report';
import { jaccard } from './sets';
import { countWhere, mean, share } from './stats';

function row(language: Language, pair: string, values: number[]): CrossAgentRow {
  return {
    language,
    pair,
    n: values.length,
    jaccard_mean: mean(values),
    cdr: share(countWhere(values, (j) => j === 0), values.length),
  };
}

/**
 * M5: the Jaccard similarity of two agents' D1 on the same task and language, where both instances
 * succeeded (a task one agent lacks is skipped for its pairs). Mean and complete-disjointness rate
 * (share of comparisons with J = 0) per agent pair, and over all pairs pooled (`all`).
 */
export function crossAgentAgreement(primary: readonly Instance[]): CrossAgentRow[] {
  const rows: CrossAgentRow[] = [];
  for (const language of languagesOf(primary)) {
    const inLanguage = primary.filter((i) => i.language === language);
    const agents = agentsOf(inLanguage);
    if (agents.length < 2) continue;
    const byAgentTask = new Map(inLanguage.map((i) => [`${i.agent}\u0000${i.task}`, i]));
    const tasks = [...groupBy(inLanguage, (i) => i.task).keys()].sort();
    const pooled: number[] = [];
    for (let x = 0; x < agents.length; x += 1) {
      for (let y = x + 1; y < agents.length; y += 1) {
        const values: number[] = [];
        for (const task of tasks) {
          const a = byAgentTask.get(`${agents[x]}\u0000${task}`);
          const b = byAgentTask.get(`${agents[y]}\u0000${task}`);
          if (!a?.success || !b?.success || !a.declared || !b.declared) continue;
          values.push(jaccard(a.declared, b.declared));
        }
        rows.push(row(language, `${agents[x]}-${agents[y]}`, values));
        pooled.push(...values);
      }
    }
    rows.push(row(language, 'all', pooled));
  }
  return rows;
}

/** The macro average of the per-language CDR (over all pairs), over languages where it is defined. */
export function cdrMacro(rows: readonly CrossAgentRow[]): Rate {
  const perLanguage = rows.filter((r) => r.pair === 'all' && r.cdr !== null).map((r) => r.cdr as number);
  return mean(perLanguage);
}
