import type { GenericVerdict, GpuStageResult, StageResult } from '../domain/readiness';

/** A generic probe's stage result with its verdict (null where it did not run). */
export type GenericStage = StageResult & { verdict: GenericVerdict | null };

/**
 * C3 or C4 from the probes that ran (docs/readiness.md): the generic probe alone where the repository
 * gives no command, the repository's command alone where no generic probe ran, else both. With both,
 * the stage succeeds only when each did; its failure fields are the first failure's, the generic probe
 * first (a kernel or an all-reduce that fails explains the entry that fails with it). A probe that was
 * skipped (too few GPUs; the repository's command without the assets its prepare stage did not make,
 * which the record's `prepare` shows) decides nothing. Pure.
 */
export function decideGpuStage(generic: GenericStage | null, entry: StageResult | null): GpuStageResult {
  const verdict = generic?.verdict ?? null;
  const strip = ({ verdict: _v, ...result }: GenericStage): StageResult => result;
  const g = generic && generic.status !== 'skipped' ? strip(generic) : null;
  const e = entry && entry.status !== 'skipped' ? entry : null;
  if (!g && !e) {
    // Neither ran: the stage is skipped for the reason of the one that was asked.
    if (generic) return { ...strip(generic), decided_by: 'generic', generic: verdict };
    if (entry) return { ...entry, decided_by: 'repository', generic: verdict };
    throw new Error('a GPU stage needs the generic probe or the repository command');
  }
  if (!g) return { ...e!, decided_by: 'repository', generic: verdict };
  if (!e) return { ...g, decided_by: 'generic', generic: verdict };
  const failed = [g, e].find((r) => r.status !== 'success');
  const duration = g.duration_s === null && e.duration_s === null ? null : (g.duration_s ?? 0) + (e.duration_s ?? 0);
  const command = [g.command, e.command].filter((c): c is string => !!c).join('; ') || null;
  if (!failed) return { ...e, duration_s: duration, command, decided_by: 'both', generic: verdict };
  return {
    status: failed.status,
    skip_reason: failed.skip_reason,
    failure_category: failed.failure_category,
    exit_code: failed.exit_code,
    error_excerpt: failed === g ? `generic probe: ${failed.error_excerpt ?? 'failed'}` : failed.error_excerpt,
    duration_s: duration,
    command,
    decided_by: 'both',
    generic: verdict,
  };
}
