import { confirmByRemoval, type NamesConfirmed, type TrialBudget } from './bisection';
import { trialKey } from './trialKey';
import type { BaselineRun, ConfirmationDetail, ConfirmationFields, ConfirmationPlan, ConfirmationSubject, RemovalTrialInput, RemovalTrialResult, TrialComparison, TrialRemoval } from './types';

const NOTHING: TrialRemoval = { declared: [], installed: [] };

/**
 * What a confirmation calls: the plan and one removal trial (in a workflow, the activities; elsewhere,
 * the same activities called directly), and `faultOf`, which says whether a call's error is a harness
 * fault that ends the confirmation (its message) or is to be thrown on (null: a cancellation).
 */
export interface ConfirmationCalls {
  plan(subject: ConfirmationSubject): Promise<ConfirmationPlan>;
  trial(input: RemovalTrialInput): Promise<RemovalTrialResult>;
  faultOf(err: unknown): string | null;
}

/**
 * Phantom confirmation of one successful instance (docs/confirmation.md): the plan (which names, from
 * the final project), the unchanged project run once more in a fresh sandbox (the baseline: where it
 * does not succeed, nothing can be confirmed), then one removal trial per name, or bisection over many
 * (bisection.ts), phantoms first, then bloat, all within `maxTrials` trials. Where a trial differs from
 * the baseline only in its output, the unchanged project is run a second time: where that differs too,
 * the output is volatile and only exits are compared from then on. A harness fault ends the
 * confirmation with what was decided, the rest untried and the fault said. Deterministic for the same
 * answers (no clock, no I/O of its own), so the instance workflow runs it (src/workflows/confirmPhantoms.ts).
 */
export async function runConfirmation(owner: string, subject: ConfirmationSubject, maxTrials: number, calls: ConfirmationCalls): Promise<ConfirmationFields> {
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
  const faultOrThrow = (err: unknown): void => {
    const fault = calls.faultOf(err);
    if (fault === null) throw err;
    error = fault;
  };
  // The baseline and every trial resolve as of the study's date, as its Execute did (only an input's payload: no patch).
  const dated = subject.resolveAsOf ? { resolveAsOf: subject.resolveAsOf } : {};
  const attempt = async (remove: TrialRemoval, baseline: BaselineRun | undefined, repeat = 0): Promise<RemovalTrialResult | null> => {
    try {
      trials++;
      const r = await calls.trial({ owner, language: subject.language, filesHash: subject.filesHash, ...(subject.run ? { run: subject.run } : {}), limits: subject.limits, remove, key: trialKey(remove, repeat), ...(baseline ? { baseline } : {}), compareOutput, ...dated });
      durationMs += r.run.durationMs;
      return r;
    } catch (err) {
      faultOrThrow(err);
      return null;
    }
  };

  let plan: ConfirmationPlan;
  try {
    plan = await calls.plan(subject);
  } catch (err) {
    faultOrThrow(err);
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
