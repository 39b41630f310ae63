import type { ErrorClass, Language } from './instance';
import type { ExecutionStep } from './execution';
import type { InstalledVersions } from './provenance';
import { isSameInstalled, type InstalledDiff } from './installedDiff';

/**
 * A finished study's final manifests installed again on a later day (`envgap study re-resolve NAME`,
 * docs/resolution.md): per successful instance, whether its final project still installs and runs,
 * and how its D2 changed. Pure types and arithmetic.
 */

/** `same`/`changed`: it still installs, with D2 as it was or not; `uninstallable`: its install (or build) fails now. */
export const RERESOLUTION_STATUSES = ['same', 'changed', 'uninstallable'] as const;
export type ReresolutionStatus = (typeof RERESOLUTION_STATUSES)[number];

export interface ReresolutionRecord {
  schema: 'envgap.reresolution/v1';
  instance_id: string;
  study: string;
  agent: string;
  language: Language;
  task: string;
  /** The day of the re-resolution (UTC, YYYY-MM-DD), and the time it ended. */
  resolved_on: string;
  recorded_at: string;
  /** When the instance's final execution ran, and the day it resolved as of (null: as of the day it ran). */
  originally: { recorded_at: string | null; resolve_as_of: string | null };
  status: ReresolutionStatus;
  /** The install (or, for Java and C++, the build) went through; the program ran as before. */
  installs: boolean;
  runs: boolean;
  failed_step: ExecutionStep | null;
  error_class: ErrorClass | null;
  /** The failing step's output (a blob hash) and the whole log of the steps. */
  error_hash: string | null;
  log_hash: string;
  installed_then: InstalledVersions;
  /** Null where it no longer installs. */
  installed_now: InstalledVersions | null;
  diff: InstalledDiff | null;
}

export function reresolutionStatus(installs: boolean, diff: InstalledDiff | null): ReresolutionStatus {
  if (!installs) return 'uninstallable';
  return diff === null || isSameInstalled(diff) ? 'same' : 'changed';
}

/** The manifests' half-life, as far as one re-resolution shows it: of the manifests re-resolved, the shares that stopped installing and whose D2 changed. */
export interface ReresolutionSummary {
  manifests: number;
  uninstallable: number;
  changed: number;
  same: number;
  /** Installed, but the program no longer ran as it did. */
  installs_but_fails: number;
  /** Shares of `manifests` (null where there is none). */
  uninstallable_share: number | null;
  changed_share: number | null;
  /** Stopped installing or changed D2: the share no longer as it was. */
  drifted_share: number | null;
}

export function reresolutionSummary(records: readonly Pick<ReresolutionRecord, 'status' | 'installs' | 'runs'>[]): ReresolutionSummary {
  const n = records.length;
  const count = (s: ReresolutionStatus) => records.filter((r) => r.status === s).length;
  const [uninstallable, changed, same] = [count('uninstallable'), count('changed'), count('same')];
  const share = (k: number) => (n === 0 ? null : k / n);
  return {
    manifests: n,
    uninstallable,
    changed,
    same,
    installs_but_fails: records.filter((r) => r.installs && !r.runs).length,
    uninstallable_share: share(uninstallable),
    changed_share: share(changed),
    drifted_share: share(uninstallable + changed),
  };
}

/** The workflow id of a study's re-resolution on a day, and the key of one instance's within it. */
export const reresolveStudyId = (study: string, on: string) => `${study}/re-resolve/${on}`;
export const reresolveKey = (instanceId: string, on: string) => `${instanceId}/re-resolve/${on}`;
