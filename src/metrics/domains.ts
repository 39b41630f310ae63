import { agentsOf, type Instance } from './instances';
import type { DomainRow, WeakestDomainRow } from './report';
import { countWhere, share } from './stats';

const compareDomains = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1;

/** First-attempt and final success per agent and task domain, pooled over languages. */
export function successByDomain(primary: readonly Instance[]): DomainRow[] {
  const rows: DomainRow[] = [];
  for (const agent of agentsOf(primary)) {
    const own = primary.filter((i) => i.agent === agent);
    const domains = [...new Set(own.map((i) => i.domain))].sort(compareDomains);
    for (const domain of domains) {
      const inDomain = own.filter((i) => i.domain === domain);
      rows.push({
        agent,
        domain,
        n: inDomain.length,
        sr0: share(countWhere(inDomain, (i) => i.firstAttemptSuccess), inDomain.length),
        final_sr: share(countWhere(inDomain, (i) => i.success), inDomain.length),
      });
    }
  }
  return rows;
}

/** Each agent's lowest first-attempt domain rate, with every domain at that rate. */
export function weakestDomains(rows: readonly DomainRow[]): WeakestDomainRow[] {
  const out: WeakestDomainRow[] = [];
  for (const agent of [...new Set(rows.map((r) => r.agent))]) {
    const rated = rows.filter((r) => r.agent === agent && r.sr0 !== null);
    if (rated.length === 0) continue;
    const lowest = Math.min(...rated.map((r) => r.sr0 as number));
    out.push({ agent, sr0: lowest, domains: rated.filter((r) => r.sr0 === lowest).map((r) => r.domain) });
  }
  return out;
}
