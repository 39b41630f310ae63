import { ActivityCancellationType, ActivityFailure, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { executeTimeoutS, HEARTBEAT_TIMEOUT_S } from '../domain/activityTimeouts';
import { confirmByRemoval, type NamesConfirmed, type TrialBudget } from '../domain/confirmation/bisection';
import { trialKey } from '../domain/confirmation/trialKey';
import type { BaselineRun, ConfirmationDetail, ConfirmationFields, ConfirmationSubject, RemovalTrialResult, TrialComparison, TrialRemoval } from '../domain/confirmation/types';
import { capMessage } from '../text/excerpt';

const retry = { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 3 };
const NOTHING: TrialRemoval = { declared: [], installed: [] };

/**
 * Phantom confirmation of one successful instance (docs/confirmation.md), as workflow code: the plan
 * (which names, from the final project), the unchanged project run once more in a fresh sandbox (the
 * baseline: where it does not succeed, nothing can be confirmed), then one removal trial per name, or
 * bisection over many (src/domain/confirmation/bisection.ts), phantoms first, then bloat, all within
 * `maxTrials` trials. Where a trial differs from the baseline only in its output, the unchanged project
 * is run a second time: where that differs too, the output is volatile and only exits are compared
 * from then on. Each trial is an activity of its own (idempotent: its sandbox is named from the owner
 * and the trial's key). A harness fault ends the confirmation with what was decided, the rest
 * untried and the fault said; a cancellation goes through.
 */
export async function confirmPhantoms(owner: string, subject: ConfirmationSubject, maxTrials: number): Promise<ConfirmationFields> {
  const { planConfirmation } = proxyActivities<Activities>({ startToCloseTimeout: '5 minutes', retry });
  const { removalTrial } = proxyActivities<Activities>({
    startToCloseTimeout: executeTimeoutS(subject.limits) * 1000,
    heartbeatTimeout: HEARTBEAT_TIMEOUT_S * 1000,
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry,
  });
  const budget: TrialBudget = { left: maxTrials };
  let trials = 0;
  let durationMs = 0;
  let compareOutput = true;
  let outputChecked = false;
  let error: string | undefined;
  const detail = (d: Partial<ConfirmationDetail> & Pick<ConfirmationDetail, 'baseline' | 'phantom'>): ConfirmationDetail => ({
    trials,
    max_trials: maxTrials,
    output_compared: compareOutput,
    duration_ms: durationMs,
    ...d,
    ...(error !== undefined ? { error } : {}),
  });
  const attempt = async (remove: TrialRemoval, baseline: BaselineRun | undefined, repeat = 0): Promise<RemovalTrialResult | null> => {
    try {
      trials++;
      const r = await removalTrial({ owner, language: subject.language, filesHash: subject.filesHash, ...(subject.run ? { run: subject.run } : {}), limits: subject.limits, remove, key: trialKey(remove, repeat), ...(baseline ? { baseline } : {}), compareOutput });
      durationMs += r.run.durationMs;
      return r;
    } catch (err) {
      if (isCancellation(err) || !(err instanceof ActivityFailure)) throw err;
      error = capMessage(`${err.activityType}: ${err.cause?.message ?? err.message}`);
      return null;
    }
  };

  let plan;
  try {
    plan = await planConfirmation(subject);
  } catch (err) {
    if (isCancellation(err) || !(err instanceof ActivityFailure)) throw err;
    error = capMessage(`${err.activityType}: ${err.cause?.message ?? err.message}`);
    return { confirmation: detail({ baseline: null, phantom: { broke: {}, untried: [], not_in_final_manifest: [] } }) };
  }
  const untriedPhantoms = [...plan.phantom.removable, ...plan.phantom.notRemovable].sort();
  const nothingTried = (baseline: ConfirmationDetail['baseline']): ConfirmationFields => ({
    confirmation: detail({ baseline, phantom: { broke: {}, untried: untriedPhantoms, not_in_final_manifest: plan.phantom.notInFinalManifest } }),
  });
  const toTry = plan.phantom.removable.length + (plan.bloat && 'removable' in plan.bloat ? plan.bloat.removable.length : 0);

  // The unchanged project once more: what the trials are compared with (not needed where nothing is to be tried).
  let baseline: BaselineRun | undefined;
  if (toTry > 0) {
    budget.left--;
    const first = await attempt(NOTHING, undefined);
    if (first === null) return nothingTried(null);
    if (!first.run.success || first.comparison?.same === false) {
      const broke = first.comparison && !first.comparison.same ? first.comparison : { how: 'run-exit-differs' as const, excerpt: 'the unchanged project did not succeed' };
      return nothingTried({ reproduced: false, how: broke.how, excerpt: broke.excerpt });
    }
    baseline = { ...first.run, success: true };
  }

  const tryWithout = (kind: keyof TrialRemoval) => async (group: string[]): Promise<TrialComparison | null> => {
    if (error !== undefined) return null;
    const r = await attempt({ ...NOTHING, [kind]: group }, baseline);
    if (r === null) return null;
    const c = r.comparison ?? { same: true };
    if (c.same || c.how !== 'output-differs' || outputChecked) return c;
    // Differs in its output alone: is the unchanged project's output the same twice?
    outputChecked = true;
    if (budget.left <= 0) return c;
    budget.left--;
    const again = await attempt(NOTHING, baseline, 1);
    if (again === null) return null;
    if (again.comparison?.same !== false) return c;
    compareOutput = false;
    return { same: true };
  };

  const phantoms: NamesConfirmed = await confirmByRemoval(plan.phantom.removable, tryWithout('declared'), budget);
  const phantomCheck = { ...phantoms.check, ...Object.fromEntries(plan.phantom.notInFinalManifest.map((n) => [n, 'unneeded' as const])) };
  const phantom = { broke: phantoms.broke, untried: [...phantoms.untried, ...plan.phantom.notRemovable].sort(), ...together(phantoms), not_in_final_manifest: plan.phantom.notInFinalManifest };

  let bloat: ConfirmationDetail['bloat'];
  let bloatCheck: ConfirmationFields['bloat_check'];
  if (plan.bloat && 'unsupported' in plan.bloat) bloat = { unsupported: plan.bloat.unsupported };
  else if (plan.bloat) {
    const confirmed = await confirmByRemoval(plan.bloat.removable, tryWithout('installed'), budget);
    bloat = { broke: confirmed.broke, untried: confirmed.untried, ...together(confirmed) };
    bloatCheck = confirmed.check;
  }
  return {
    phantom_check: sortedKeys(phantomCheck),
    ...(bloatCheck !== undefined ? { bloat_check: bloatCheck } : {}),
    confirmation: detail({ baseline: baseline ? { reproduced: true } : null, phantom, ...(bloat ? { bloat } : {}) }),
  };
}

function together(c: NamesConfirmed): { together?: string[] } {
  return c.together.length > 0 ? { together: c.together } : {};
}

function sortedKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]!]));
}
