import type { InstanceRecord } from '../domain/instance';
import { formatTable } from '../text/table';

/** Verdicts as one cell: `moment unneeded, openssl needed (build-failed)`; `-` where none. */
function verdicts(check: Record<string, string> | undefined, broke: Record<string, { how: string }> | undefined): string {
  const entries = Object.entries(check ?? {});
  if (entries.length === 0) return '-';
  return entries.map(([n, v]) => `${n} ${v}${v === 'needed' && broke?.[n] ? ` (${broke[n]!.how})` : ''}`).join(', ');
}

/** The bloat cell: its verdicts, counted where there are many, or why the ecosystem cannot try. */
function bloatCell(r: InstanceRecord): string {
  const b = r.confirmation?.bloat;
  if (!b) return '-';
  if ('unsupported' in b) return 'not possible';
  const values = Object.values(r.bloat_check ?? {});
  if (values.length > 4) return `${values.filter((v) => v === 'unneeded').length} unneeded, ${values.filter((v) => v === 'needed').length} needed${b.untried.length ? `, ${b.untried.length} untried` : ''}`;
  return verdicts(r.bloat_check, b.broke) + (b.untried.length ? `; untried ${b.untried.join(' ')}` : '');
}

/** The instances of a study that carry a confirmation: what the trace called phantom, what removal found, the cost. */
export function confirmationTable(records: readonly InstanceRecord[]): string {
  const rows = records
    .filter((r) => r.confirmation)
    .map((r) => {
      const c = r.confirmation!;
      const traced = new Set(r.traced ?? []);
      const phantoms = (r.declared ?? []).filter((n) => !traced.has(n));
      const baseline = c.baseline === null ? '' : c.baseline.reproduced ? '' : `; unchanged project ${c.baseline.how}`;
      const untried = c.phantom.untried.length ? `; untried ${c.phantom.untried.join(' ')}` : '';
      return [
        r.agent, r.language, r.task, String(r.trial),
        phantoms.join(' ') || '-',
        verdicts(r.phantom_check, c.phantom.broke) + untried + baseline + (c.error ? `; error: ${c.error}` : ''),
        bloatCell(r),
        String(c.trials),
        (c.duration_ms / 1000).toFixed(1),
      ];
    });
  return formatTable(['agent', 'lang', 'task', 'trial', 'phantoms (traced only)', 'phantom_check', 'bloat_check', 'trials', 'seconds'], rows);
}
