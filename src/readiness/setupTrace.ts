import type { StageResult, Support } from '../domain/readiness';
import type { SetupPrecision, SetupUntracedStage } from '../domain/setupPrecision';

/** Which of the pyramid's commands setup precision traces, and why the others are not. */
export interface SetupTracePlan {
  /** C1's entry where C1 ran (success or failure); null where it was skipped or has none. */
  c1: string | null;
  /** C2's cuda-check where the repository supports a GPU stage (its framework is then the repository's need). */
  c2: boolean;
  untraced: SetupUntracedStage[];
}

/**
 * C1's command is traced where C1 ran, C2's cuda-check where the repository has a GPU stage; both
 * without GPUs. C3 and C4 run on GPUs and are not traced (`needs_gpu`); a stage the repository does
 * not support is `not_applicable`. Pure (the workflow calls it).
 */
export function planSetupTrace(repo: { supports: readonly Support[]; entry: { cpu?: string } }, c1: StageResult): SetupTracePlan {
  const untraced: SetupUntracedStage[] = [];
  const ranC1 = c1.status !== 'skipped' && repo.entry.cpu ? repo.entry.cpu : null;
  if (!ranC1) untraced.push({ stage: 'c1', reason: c1.skip_reason ?? (repo.supports.includes('cpu') ? 'no_entry' : 'not_applicable') });
  const gpuStage = repo.supports.includes('single_gpu') || repo.supports.includes('multi_gpu');
  if (!gpuStage) untraced.push({ stage: 'c2', reason: 'not_applicable' });
  untraced.push({ stage: 'c3', reason: repo.supports.includes('single_gpu') ? 'needs_gpu' : 'not_applicable' });
  untraced.push({ stage: 'c4', reason: repo.supports.includes('multi_gpu') ? 'needs_gpu' : 'not_applicable' });
  return { c1: ranC1, c2: gpuStage, untraced };
}

/** The record's block where the measurement itself failed: a harness fault, no precision. */
export function failedSetupPrecision(plan: SetupTracePlan, error: { kind: string; message: string }): SetupPrecision {
  return { python: null, base_image: null, kinds: null, installed: 0, installed_used: 0, precision: null, traced: [], untraced: plan.untraced, error };
}
