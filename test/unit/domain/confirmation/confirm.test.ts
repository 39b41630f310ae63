import { runConfirmation, type ConfirmationCalls } from '../../../../src/domain/confirmation/confirm';
import type { ConfirmationSubject, RemovalTrialInput, TrialComparison } from '../../../../src/domain/confirmation/types';
import { DEFAULT_LIMITS } from '../../../../src/domain/study';

// The confirmation as the workflows and the calibration suite run it, over plain functions (the
// workflow tests in test/workflows/confirm-phantoms.test.ts run it over activities).
const subject: ConfirmationSubject = { instanceId: 's/a/python/p_01/1', language: 'python', filesHash: 'f', limits: DEFAULT_LIMITS, declared: ['a', 'b', 'c'], installed: null, traced: ['a'] };
const run = { success: true, failedStep: null, exitCode: 0, runKind: 'program' as const, outputHash: 'o', durationMs: 500 };

function calls(without: (removed: string[]) => TrialComparison | Error, faultOf: ConfirmationCalls['faultOf'] = (e) => String(e)): ConfirmationCalls & { trials: RemovalTrialInput[] } {
  const trials: RemovalTrialInput[] = [];
  return {
    trials,
    plan: async (s) => ({ phantom: { removable: (s.declared as string[]).filter((n) => !(s.traced as string[]).includes(n)), notInFinalManifest: [], notRemovable: [] } }),
    trial: async (input) => {
      trials.push(input);
      if (input.remove.declared.length === 0) return { run, comparison: { same: true }, notFound: [] };
      const c = without(input.remove.declared);
      if (c instanceof Error) throw c;
      return { run, comparison: c, notFound: [] };
    },
    faultOf,
  };
}

test('a baseline, then a trial per phantom, keyed and owned; verdicts, how needed ones broke, the trials and their time', async () => {
  const c = calls((removed) => (removed.includes('c') ? { same: false, how: 'build-failed', excerpt: 'no c' } : { same: true }));
  const fields = await runConfirmation('owner', subject, 10, c);
  expect(c.trials.map((t) => [t.owner, t.remove.declared, t.baseline === undefined])).toEqual([['owner', [], true], ['owner', ['b'], false], ['owner', ['c'], false], ['owner', ['c', 'b'], false]]);
  expect(fields).toEqual({
    phantom_check: { b: 'unneeded', c: 'needed' },
    confirmation: { baseline: { reproduced: true }, trials: 4, max_trials: 10, output_compared: true, duration_ms: 2000, phantom: { broke: { c: { how: 'build-failed', excerpt: 'no c' } }, untried: [], not_in_final_manifest: [] } },
  });
});

test('a fault ends it with what was decided; an error that is no fault is thrown on', async () => {
  const fault = await runConfirmation('owner', subject, 10, calls((removed) => (removed.includes('c') ? new Error('docker is gone') : { same: true })));
  expect(fault).toMatchObject({ phantom_check: { b: 'unneeded' }, confirmation: { error: 'Error: docker is gone', phantom: { untried: ['c'] }, trials: 3 } });
  await expect(runConfirmation('owner', subject, 10, calls(() => new Error('cancelled'), () => null))).rejects.toThrow('cancelled');
});
