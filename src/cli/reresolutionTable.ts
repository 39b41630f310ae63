import { describeInstalledDiff } from '../domain/installedDiff';
import { parseInstanceId } from '../domain/instance';
import type { ReresolutionRecord, ReresolutionSummary } from '../domain/reresolution';
import { formatTable } from '../text/table';

const percent = (share: number | null) => (share === null ? '-' : `${(share * 100).toFixed(1)}%`);

/**
 * A study's re-resolution on a day: per instance whether its final manifest still installs and runs
 * and how D2 changed; instances that succeeded but have no result (a harness error) listed as such.
 */
export function reresolutionTable(records: readonly ReresolutionRecord[], missing: readonly string[]): string {
  const rows = records.map((r) => [
    r.agent, r.language, r.task, String(parseInstanceId(r.instance_id).trial),
    r.status,
    r.installs ? 'yes' : `no (${r.failed_step ?? '?'}${r.error_class ? `, ${r.error_class}` : ''})`,
    r.installs ? (r.runs ? 'yes' : `no (${r.error_class ?? r.failed_step ?? '?'})`) : '-',
    r.originally.resolve_as_of ? `as of ${r.originally.resolve_as_of}` : (r.originally.recorded_at?.slice(0, 10) ?? '-'),
    r.diff ? describeInstalledDiff(r.diff) : '-',
  ]);
  for (const id of missing) {
    const k = parseInstanceId(id);
    rows.push([k.agent, k.language, k.task, String(k.trial), 'error', '-', '-', '-', 'no result: the harness failed (see the workflow in the Temporal UI)']);
  }
  return formatTable(['agent', 'lang', 'task', 'trial', 'status', 'installs', 'runs', 'resolved then', 'D2 changes (then->now, +added, -removed)'], rows);
}

/** The summary lines: the shares that stopped installing and whose D2 changed (the manifests' half-life as of this day). */
export function reresolutionSummaryText(on: string, s: ReresolutionSummary, errors: number): string {
  return [
    `re-resolved on ${on}: ${s.manifests} final manifests of successful instances${errors ? ` (${errors} more with no result: harness errors)` : ''}`,
    `  stopped installing: ${s.uninstallable} (${percent(s.uninstallable_share)})`,
    `  still install, D2 changed: ${s.changed} (${percent(s.changed_share)})`,
    `  still install, D2 the same: ${s.same}`,
    `  no longer as they were (either): ${percent(s.drifted_share)}; installed but the program no longer ran: ${s.installs_but_fails}`,
  ].join('\n');
}
