import type { Language } from '../domain/instance';
import { formatTable } from '../text/table';
import type { ConfirmedRates } from './confirmedRates';
import { toCsv } from './csvText';
import type { MetricsReport } from './report';

const fraction = (v: number | null) => (v === null ? null : v.toFixed(3));

/** The rows (cells, then languages pooled as `all`) that carry confirmed rates. */
function confirmedRows(report: MetricsReport): { agent: string; language: Language; c: ConfirmedRates }[] {
  return [
    ...report.cells.filter((r) => r.confirmed).map((r) => ({ agent: r.agent, language: r.language, c: r.confirmed! })),
    ...report.languages.filter((r) => r.confirmed).map((r) => ({ agent: 'all', language: r.language, c: r.confirmed! })),
  ];
}

/** The text report's section beside M3, where any instance was confirmed: the trace's rates and removal's over the same instances. */
export function confirmedSection(report: MetricsReport, languageName: (l: Language) => string): string | null {
  const rows = confirmedRows(report);
  if (rows.length === 0) return null;
  return (
    'Phantoms and bloat confirmed by removal (over the instances confirmed: traced-only rate, then the share of D1 (D2) confirmed unneeded; names unneeded/needed/untried)\n' +
    formatTable(
      ['agent', 'language', 'n', 'phantom (trace)', 'phantom (confirmed)', 'phantom names', 'n bloat', 'bloat (trace)', 'bloat (confirmed)', 'bloat names'],
      rows.map(({ agent, language, c }) => [
        agent, languageName(language), c.phantom_n, fraction(c.phantom_traced), fraction(c.phantom_confirmed), `${c.phantom_unneeded}/${c.phantom_needed}/${c.phantom_untried}`,
        c.bloat_n, fraction(c.bloat_traced), fraction(c.bloat_confirmed), c.bloat_n === 0 ? null : `${c.bloat_unneeded}/${c.bloat_needed}/${c.bloat_untried}`,
      ]),
    )
  );
}

const COLUMNS = ['phantom_n', 'phantom_traced', 'phantom_confirmed', 'phantom_names', 'phantom_unneeded', 'phantom_needed', 'phantom_untried', 'bloat_n', 'bloat_traced', 'bloat_confirmed', 'bloat_names', 'bloat_unneeded', 'bloat_needed', 'bloat_untried'] as const;

/** `confirmed.csv`, where any instance was confirmed: one row per cell and per language (agent `all`). */
export function confirmedCsv(report: MetricsReport): Record<string, string> {
  const rows = confirmedRows(report);
  if (rows.length === 0) return {};
  return { 'confirmed.csv': toCsv(['agent', 'language', ...COLUMNS], rows.map(({ agent, language, c }) => [agent, language, ...COLUMNS.map((k) => c[k])])) };
}
