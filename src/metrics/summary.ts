import { accuracySummary } from './accuracy';
import { inflationSummary } from './inflation';
import { agentsOf, languagesOf, type Instance } from './instances';
import { confirmedSummary } from './confirmedRates';
import { mismatchSummary } from './rates';
import type { CellMetrics, LanguageMetrics, QualitySummary, RepairDepthRow } from './report';
import { repairDepthCounts, successRates } from './success';
import { unnecessaryDependencyRate } from './udr';

/** M1-M4 over one group of primary instances. */
export function qualitySummary(instances: readonly Instance[]): QualitySummary {
  return {
    ...successRates(instances),
    ...accuracySummary(instances),
    ...mismatchSummary(instances),
    ...confirmedSummary(instances),
    ...inflationSummary(instances),
  };
}

function cells(primary: readonly Instance[]): { agent: string; language: Instance['language']; group: Instance[] }[] {
  return agentsOf(primary).flatMap((agent) => {
    const own = primary.filter((i) => i.agent === agent);
    return languagesOf(own).map((language) => ({ agent, language, group: own.filter((i) => i.language === language) }));
  });
}

/** Per (agent, language) cell: M1-M4 and M7. */
export function cellMetrics(primary: readonly Instance[]): CellMetrics[] {
  return cells(primary).map(({ agent, language, group }) => ({
    agent,
    language,
    ...qualitySummary(group),
    ...unnecessaryDependencyRate(group),
  }));
}

/** Per language, pooled over agents: M1-M4 as means over all its instances. */
export function languageMetrics(primary: readonly Instance[]): LanguageMetrics[] {
  return languagesOf(primary).map((language) => ({
    language,
    ...qualitySummary(primary.filter((i) => i.language === language)),
  }));
}

export function repairDepthRows(primary: readonly Instance[]): RepairDepthRow[] {
  return cells(primary).map(({ agent, language, group }) => ({ agent, language, ...repairDepthCounts(group) }));
}
