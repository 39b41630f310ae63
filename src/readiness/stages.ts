import type { SkipReason, StageResult } from '../domain/readiness';

/** A stage that did not run, and why. */
export function skipped(reason: SkipReason): StageResult {
  return { status: 'skipped', skip_reason: reason, failure_category: null, exit_code: null, error_excerpt: null, duration_s: null, command: null };
}
