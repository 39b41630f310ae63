import type { Broke, NamesDetail } from '../domain/confirmation/types';
import type { InstanceRecord } from '../domain/instance';
import type { ConfirmedRates } from '../metrics/confirmedRates';
import type { MetricsReport } from '../metrics/report';
import { excerpt } from '../text/excerpt';
import { num, type Table } from './figure';

/** How a needed name broke, in one line: its kind and the excerpt's first line, capped. */
const brokeText = (b: Broke) => `${b.how}: ${excerpt(b.excerpt.split('\n').find((l) => l.trim() !== '') ?? '', 100)}`;

/** Each name's verdict: `colorama unneeded; openssl needed (build-failed: undefined reference …)`; then the untried names. */
function verdictCell(check: Readonly<Record<string, string>> | undefined, detail: NamesDetail): string {
  const names = Object.keys(check ?? {}).sort();
  const parts = names.map((n) => (check![n] === 'needed' && detail.broke[n] ? `${n} needed (${brokeText(detail.broke[n]!)})` : `${n} ${check![n]}`));
  if (detail.untried.length > 0) parts.push(`untried: ${detail.untried.join(' ')}`);
  return parts.join('; ') || '-';
}

function baselineCell(r: InstanceRecord): string {
  const b = r.confirmation!.baseline;
  if (b === null) return 'not run (nothing to try)';
  if (!b.reproduced) return `did not run again: ${brokeText(b)}`;
  return r.confirmation!.output_compared ? 'ran alike' : 'ran alike (exits compared; its output varies)';
}

/** Per confirmed instance: the baseline, phantom_check and bloat_check with how needed names broke, and the trials' cost. */
function perInstance(records: readonly InstanceRecord[]): Table {
  const confirmed = records.filter((r) => r.confirmation);
  return {
    kind: 'table',
    id: 'confirmation-instances',
    title: 'Phantoms and bloat confirmed by removal, per instance',
    caption:
      'Each declared-but-untraced name (phantom_check) and, where the ecosystem can exclude one, installed-but-untraced name (bloat_check) taken out of the final project, ' +
      'which is installed, built and run again in a fresh sandbox: unneeded where it runs alike, needed where it breaks (how, and the first line of why). ' +
      'The baseline is the unchanged project run once more; the cost is the trials’ execution time.',
    head: ['agent', 'language', 'task', 'trial', 'baseline', 'phantom_check', 'bloat_check', 'trials', 'cost s'],
    rows: confirmed.map((r) => {
      const c = r.confirmation!;
      const bloat = !c.bloat ? '-' : 'unsupported' in c.bloat ? `not possible: ${c.bloat.unsupported}` : verdictCell(r.bloat_check, c.bloat);
      return [r.agent, r.language, r.task, String(r.trial), baselineCell(r), verdictCell(r.phantom_check, c.phantom) + (c.error ? `; stopped: ${c.error}` : ''), bloat, `${c.trials} of ${c.max_trials}`, (c.duration_ms / 1000).toFixed(1)];
    }),
  };
}

const names = (c: ConfirmedRates, kind: 'phantom' | 'bloat') => `${c[`${kind}_unneeded`]} / ${c[`${kind}_needed`]} / ${c[`${kind}_untried`]}`;

/** Beside M3: per language (agents pooled) and per agent and language, the trace's rates and removal's over the same confirmed instances. */
function rates(m: MetricsReport): Table {
  const rows = [
    ...m.languages.filter((l) => l.confirmed).map((l) => ({ agent: 'all', language: l.language, m3: l.phantom, c: l.confirmed! })),
    ...m.cells.filter((l) => l.confirmed).map((l) => ({ agent: l.agent, language: l.language, m3: l.phantom, c: l.confirmed! })),
  ];
  return {
    kind: 'table',
    id: 'confirmed-rates',
    title: 'Phantom and bloat rates confirmed by removal, beside M3',
    caption:
      'M3’s phantom rate over all successful instances; then, over the instances confirmed, the rate from the trace alone and the share of D1 (D2 for bloat) confirmed unneeded by removal, ' +
      'with the untraced names counted as unneeded / needed / untried. Bloat only where the ecosystem can exclude an installed package (Maven).',
    head: ['agent', 'language', 'M3 phantom', 'confirmed instances', 'phantom (trace)', 'phantom (confirmed)', 'phantom names', 'bloat instances', 'bloat (trace)', 'bloat (confirmed)', 'bloat names'],
    rows: rows.map(({ agent, language, m3, c }) => [
      agent, language, num(m3), String(c.phantom_n), num(c.phantom_traced), num(c.phantom_confirmed), names(c, 'phantom'),
      String(c.bloat_n), c.bloat_n === 0 ? '-' : num(c.bloat_traced), c.bloat_n === 0 ? '-' : num(c.bloat_confirmed), c.bloat_n === 0 ? '-' : names(c, 'bloat'),
    ]),
  };
}

// The confirmation's tables (docs/confirmation.md) are there only where a record carries one, so reports of unconfirmed studies stay as they were.

/** Beside M3 (Fig. 7): the confirmed rates. */
export function confirmedRatesTable(records: readonly InstanceRecord[], m: MetricsReport): Table[] {
  return records.some((r) => r.confirmation) ? [rates(m)] : [];
}

/** After the paper's tables: what each confirmed instance's trials found. */
export function confirmationInstancesTable(records: readonly InstanceRecord[]): Table[] {
  return records.some((r) => r.confirmation) ? [perInstance(records)] : [];
}
