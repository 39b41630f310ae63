import { ApplicationFailure, Context } from '@temporalio/activity';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ConfirmationSubjectInput, StoreConfirmationInput } from '../../src/activities/confirmationRecords';
import type { ConfirmationPlan, ConfirmationSubject, RemovalTrialInput, RemovalTrialResult, TrialComparison, TrialRun } from '../../src/domain/confirmation/types';
import { expandStudy, type InstanceInput } from '../../src/domain/study';
import type { ConfirmStudySummary } from '../../src/workflows/confirmStudy';
import type { instanceWorkflow } from '../../src/workflows/instance';
import { startTestWorkflowWorker, startWorkflowEnvironment, type TestWorker } from '../helpers/workflowEnv';
import { FakeActivities, instanceInput, passed, studyInput } from './fakes';

// Phantom confirmation on the real workflow code (the instance's, and the command's for a finished
// study), with fake activities: no Docker, no database.
//
// ENVGAP_RECORD_HISTORIES=SET also writes the histories of the confirmed instances (a Python one with
// a needed name tried again, a Java one bisecting bloat, one ended by a harness fault) and of the
// command's study workflow with its children to test/fixtures/histories/confirm-SET/, named
// `<workflow id with / as _>.json` (test/replay/history-replay.test.ts replays them).
let env: TestWorkflowEnvironment;
let worker: TestWorker;
const fake = new FakeActivities();

/** The confirmation's own fakes: a plan from the subject's lists, trials scripted per test. */
interface TrialScript {
  /** The comparison of a trial that takes `removed` out; the baseline (nothing out) passes unless `baseline` says otherwise. */
  without(removed: string[], input: RemovalTrialInput): TrialComparison | Error;
  baseline?: (input: RemovalTrialInput) => Partial<TrialRun>;
  plan?: (subject: ConfirmationSubject) => ConfirmationPlan;
  subject?: (input: ConfirmationSubjectInput) => ConfirmationSubject | null;
}
let script: TrialScript = { without: () => ({ same: true }) };
const calls: { name: string; input: any; attempt: number }[] = [];
const callsOf = (name: string) => calls.filter((c) => c.name === name).map((c) => c.input);

const run = (overrides: Partial<TrialRun> = {}): TrialRun => ({ success: true, failedStep: null, exitCode: 0, runKind: 'program', outputHash: 'out', durationMs: 1000, ...overrides });
const listed = (l: unknown) => l as string[];
const defaultPlan = (s: ConfirmationSubject): ConfirmationPlan => {
  const traced = new Set(listed(s.traced));
  return {
    phantom: { removable: listed(s.declared).filter((n) => !traced.has(n)), notInFinalManifest: [], notRemovable: [] },
    ...(s.language === 'java' ? { bloat: { removable: listed(s.installed).filter((n) => !traced.has(n)) } } : { bloat: { unsupported: 'pip cannot' } }),
  };
};

const confirmationActivities = {
  planConfirmation: async (subject: ConfirmationSubject) => {
    calls.push({ name: 'planConfirmation', input: subject, attempt: Context.current().info.attempt });
    return (script.plan ?? defaultPlan)(subject);
  },
  removalTrial: async (input: RemovalTrialInput): Promise<RemovalTrialResult> => {
    calls.push({ name: 'removalTrial', input, attempt: Context.current().info.attempt });
    const removed = [...input.remove.declared, ...input.remove.installed];
    if (removed.length === 0) {
      const r = run(script.baseline?.(input));
      return { run: r, comparison: input.baseline && r.outputHash !== input.baseline.outputHash && input.compareOutput ? { same: false, how: 'output-differs', excerpt: 'line 1' } : r.success ? { same: true } : { same: false, how: 'install-failed', excerpt: 'pip: no network' }, notFound: [] };
    }
    const c = script.without(removed, input);
    if (c instanceof Error) throw c;
    return { run: run(c.same ? {} : { success: false, exitCode: 1 }), comparison: !c.same && c.how === 'output-differs' && !input.compareOutput ? { same: true } : c, notFound: [] };
  },
  confirmationSubject: async (input: ConfirmationSubjectInput) => {
    calls.push({ name: 'confirmationSubject', input, attempt: 1 });
    return script.subject?.(input) ?? null;
  },
  storeConfirmation: async (input: StoreConfirmationInput) => {
    calls.push({ name: 'storeConfirmation', input, attempt: 1 });
  },
};

beforeAll(async () => {
  env = await startWorkflowEnvironment();
  worker = await startTestWorkflowWorker(env, 'wf-confirm', { ...fake.activities(), ...confirmationActivities });
}, 120000);
afterAll(async () => {
  await worker?.stop();
  await env?.teardown();
});

function use(s: TrialScript, declared = ['requests', 'colorama', 'six'], traced = ['requests'], installed = ['requests', 'colorama', 'six', 'urllib3']) {
  script = s;
  calls.length = 0;
  fake.use({ executeProject: () => ({ ...passed, declared: { names: declared, problem: null }, layers: { installed, traced, tracedBuild: null, tracedDebianPackages: null }, runSpec: { args: ['x'], stdin: null, env: {} } }) });
}

function runInstance(input: InstanceInput) {
  return env.client.workflow.execute<typeof instanceWorkflow>('instanceWorkflow', { workflowId: input.instanceId, taskQueue: worker.taskQueue, args: [input] });
}

async function patchMarkers(id: string): Promise<number> {
  const events = (await env.client.workflow.getHandle(id).fetchHistory()).events ?? [];
  return events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch').length;
}

/** With ENVGAP_RECORD_HISTORIES=SET: these workflows' histories, under test/fixtures/histories/confirm-SET/. */
async function saveHistories(workflowIds: string[]): Promise<void> {
  const set = process.env.ENVGAP_RECORD_HISTORIES;
  if (!set) return;
  const dir = path.resolve(__dirname, '../fixtures/histories', `confirm-${set}`);
  fs.mkdirSync(dir, { recursive: true });
  for (const id of workflowIds) fs.writeFileSync(path.join(dir, `${id.replace(/\//g, '_')}.json`), historyToJSON(await env.client.workflow.getHandle(id).fetchHistory()));
  process.stdout.write(`recorded ${workflowIds.length} histories in ${path.relative(process.cwd(), dir)}\n`);
}

const confirming = (name: string, maxTrials = 24, overrides: Partial<InstanceInput> = {}) => instanceInput(name, { confirmPhantoms: { maxTrials }, ...overrides });

describe('phantom confirmation in the instance workflow', () => {
  test('asked: after the final execution, a baseline and one trial per phantom; the record carries phantom_check and how each needed one broke', async () => {
    use({ without: (removed) => (removed.includes('six') ? { same: false, how: 'run-exit-differs', excerpt: 'exit 1, not 0: ImportError: six' } : { same: true }) });
    const i = confirming('confirm-asked');
    expect(await runInstance(i)).toMatchObject({ status: 'success' });
    expect(callsOf('planConfirmation')).toEqual([{ instanceId: i.instanceId, language: 'python', filesHash: `${i.instanceId}@0`, run: { args: ['x'], stdin: null, env: {} }, limits: i.limits, declared: ['requests', 'colorama', 'six'], installed: ['requests', 'colorama', 'six', 'urllib3'], traced: ['requests'] }]);
    const trials = callsOf('removalTrial') as RemovalTrialInput[];
    // six once more with colorama gone too: still broken, needed by the project itself.
    expect(trials.map((t) => [t.remove.declared, t.baseline === undefined])).toEqual([[[], true], [['colorama'], false], [['six'], false], [['six', 'colorama'], false]]);
    expect(new Set(trials.map((t) => t.key)).size).toBe(4);
    expect(trials.every((t) => t.owner === i.instanceId && t.filesHash === `${i.instanceId}@0` && t.run?.args[0] === 'x')).toBe(true);
    expect(fake.record(i.instanceId)).toMatchObject({
      status: 'success',
      phantom_check: { colorama: 'unneeded', six: 'needed' },
      confirmation: {
        baseline: { reproduced: true },
        trials: 4,
        max_trials: 24,
        output_compared: true,
        duration_ms: 4000,
        phantom: { broke: { six: { how: 'run-exit-differs', excerpt: 'exit 1, not 0: ImportError: six' } }, untried: [], not_in_final_manifest: [] },
        bloat: { unsupported: 'pip cannot' },
      },
    });
    expect(fake.record(i.instanceId).bloat_check).toBeUndefined();
    expect(await patchMarkers(i.instanceId)).toBe(1);
    await saveHistories([i.instanceId]);
  }, 60000);

  test('not asked: no plan, no trial, no patch marker, a record without phantom_check', async () => {
    use({ without: () => ({ same: true }) });
    const i = instanceInput('confirm-not-asked');
    await runInstance(i);
    expect(calls).toEqual([]);
    expect(fake.record(i.instanceId)).not.toHaveProperty('phantom_check');
    expect(fake.record(i.instanceId)).not.toHaveProperty('confirmation');
    expect(await patchMarkers(i.instanceId)).toBe(0);
  }, 60000);

  test('Java: bloat by exclusion after the phantoms, bisected past eight names, within the trial budget', async () => {
    const installed = ['app', ...Array.from({ length: 10 }, (_, k) => `lib${k}`)];
    use({ without: (removed, input) => (input.remove.installed.includes('lib3') ? { same: false, how: 'run-exit-differs', excerpt: 'NoClassDefFoundError: lib3' } : { same: true }) }, ['app'], ['app'], installed);
    const i = confirming('confirm-bloat', 24, { language: 'java', instanceId: 'confirm-bloat/fake/java/p_01/1' });
    await runInstance(i);
    const trials = callsOf('removalTrial') as RemovalTrialInput[];
    expect(trials.map((t) => t.remove.installed.length)).toEqual([0, 10, 5, 3, 2, 1, 1, 5, 10]);
    const r = fake.record(i.instanceId);
    expect(r.phantom_check).toEqual({});
    expect(r.bloat_check).toEqual({ ...Object.fromEntries(installed.slice(1).map((n) => [n, 'unneeded'])), lib3: 'needed' });
    expect(r.confirmation).toMatchObject({ trials: 9, bloat: { broke: { lib3: { how: 'run-exit-differs' } }, untried: [] } });
    await saveHistories([i.instanceId]);

    use({ without: () => ({ same: true }) }, ['a', 'b', 'c'], [], ['a', 'b', 'c']);
    const j = confirming('confirm-budget', 3);
    await runInstance(j);
    expect(fake.record(j.instanceId)).toMatchObject({ phantom_check: { a: 'unneeded', b: 'unneeded' }, confirmation: { trials: 3, max_trials: 3, phantom: { untried: ['c'] } } });
  }, 60000);

  test('an unchanged project that does not run again: nothing tried, and how it broke', async () => {
    use({ without: () => ({ same: true }), baseline: () => ({ success: false, failedStep: 'install', exitCode: 1, outputHash: null }) });
    const i = confirming('confirm-baseline-fails');
    await runInstance(i);
    expect(callsOf('removalTrial')).toHaveLength(1);
    expect(fake.record(i.instanceId)).toMatchObject({ status: 'success', confirmation: { baseline: { reproduced: false, how: 'install-failed', excerpt: 'pip: no network' }, trials: 1, phantom: { untried: ['colorama', 'six'] } } });
    expect(fake.record(i.instanceId)).not.toHaveProperty('phantom_check');
  }, 60000);

  test('output that differs only because the program prints differently each time: the second baseline shows it, exits alone are compared', async () => {
    let baselines = 0;
    use({ without: () => ({ same: false, how: 'output-differs', excerpt: 'line 1: expected "a", got "b"' }), baseline: () => ({ outputHash: `out-${baselines++}` }) });
    const i = confirming('confirm-volatile');
    await runInstance(i);
    const trials = callsOf('removalTrial') as RemovalTrialInput[];
    expect(trials.map((t) => [t.remove.declared.join(), t.key.endsWith('-r1'), t.compareOutput])).toEqual([['', false, true], ['colorama', false, true], ['', true, true], ['six', false, false]]);
    expect(fake.record(i.instanceId)).toMatchObject({ phantom_check: { colorama: 'unneeded', six: 'unneeded' }, confirmation: { output_compared: false, trials: 4 } });

    use({ without: (removed) => (removed.includes('six') ? { same: false, how: 'output-differs', excerpt: 'line 2' } : { same: true }) });
    const j = confirming('confirm-stable-output');
    await runInstance(j);
    expect(fake.record(j.instanceId)).toMatchObject({ phantom_check: { colorama: 'unneeded', six: 'needed' }, confirmation: { output_compared: true, trials: 5, phantom: { broke: { six: { how: 'output-differs' } } } } });
  }, 60000);

  test('a trial that fails for the harness ends the confirmation: the instance stays a success, the rest untried, the fault said', async () => {
    use({ without: (removed) => (removed.includes('six') ? ApplicationFailure.nonRetryable('docker is gone', 'DockerDown') : { same: true }) });
    const i = confirming('confirm-harness-fault');
    expect(await runInstance(i)).toMatchObject({ status: 'success' });
    expect(fake.record(i.instanceId)).toMatchObject({
      status: 'success',
      error: null,
      phantom_check: { colorama: 'unneeded' },
      confirmation: { error: 'removalTrial: docker is gone', phantom: { untried: ['six'] }, trials: 3 },
    });
    await saveHistories([i.instanceId]);
  }, 60000);

  test("a study's resolve_as_of: the baseline and every trial install as of the same day as its Execute; without one, no date is given", async () => {
    use({ without: (removed) => (removed.includes('six') ? { same: false, how: 'install-failed', excerpt: 'no six' } : { same: true }) });
    const i = confirming('confirm-dated', 24, { resolveAsOf: '2023-06-01' });
    await runInstance(i);
    expect(fake.callsOf('executeProject').map((c) => (c.input as { resolveAsOf?: string }).resolveAsOf)).toContain('2023-06-01');
    expect(callsOf('planConfirmation')).toEqual([expect.objectContaining({ resolveAsOf: '2023-06-01' })]);
    const trials = callsOf('removalTrial') as RemovalTrialInput[];
    expect(trials.length).toBeGreaterThan(1);
    expect(trials.map((t) => t.resolveAsOf)).toEqual(trials.map(() => '2023-06-01'));

    use({ without: () => ({ same: true }) });
    await runInstance(confirming('confirm-undated'));
    for (const t of callsOf('removalTrial')) expect(t).not.toHaveProperty('resolveAsOf');
  }, 60000);
});

describe('confirming a finished study (envgap study confirm-phantoms)', () => {
  test('each instance a child workflow: those with nothing to confirm skipped, the others confirmed and stored', async () => {
    const study = studyInput('confirm-study', { tasks: [{ id: 'p_01', title: 't', domain: 'd' }, { id: 'p_02', title: 't', domain: 'd' }], concurrency: 2 });
    const [first, second] = expandStudy(study);
    use({
      without: () => ({ same: true }),
      subject: (input) => (input.instanceId === first!.instanceId ? { instanceId: input.instanceId, language: 'python', filesHash: 'f', limits: first!.limits, declared: ['a', 'b'], installed: ['a', 'b'], traced: ['a'] } : null),
    });
    const summary = await env.client.workflow.execute<(i: unknown) => Promise<ConfirmStudySummary>>('confirmStudyWorkflow', { workflowId: 'confirm-study/confirm-phantoms', taskQueue: worker.taskQueue, args: [{ study, maxTrials: 5, again: true }] });
    expect(summary.progress).toMatchObject({ total: 2, done: 2, counts: { confirmed: 1, skipped: 1, error: 0 } });
    expect(callsOf('confirmationSubject').map((c) => c.instanceId).sort()).toEqual([first!.instanceId, second!.instanceId].sort());
    expect(callsOf('confirmationSubject').every((c) => c.again === true)).toBe(true);
    expect(callsOf('storeConfirmation')).toEqual([{ instanceId: first!.instanceId, fields: expect.objectContaining({ phantom_check: { b: 'unneeded' }, confirmation: expect.objectContaining({ trials: 2, max_trials: 5 }) }) }]);
    expect((callsOf('removalTrial') as RemovalTrialInput[]).every((t) => t.owner === `${first!.instanceId}/confirm-phantoms`)).toBe(true);
    await saveHistories(['confirm-study/confirm-phantoms', `${first!.instanceId}/confirm-phantoms`, `${second!.instanceId}/confirm-phantoms`]);
  }, 60000);

  test("the date the stored instance carries (confirmationSubject reads its input, else its provenance) reaches every trial", async () => {
    const study = studyInput('confirm-dated-study', { tasks: [{ id: 'p_01', title: 't', domain: 'd' }], resolveAsOf: '2023-06-01' });
    const [only] = expandStudy(study);
    use({ without: () => ({ same: true }), subject: (input) => ({ instanceId: input.instanceId, language: 'python', filesHash: 'f', limits: only!.limits, declared: ['a', 'b'], installed: ['a', 'b'], traced: ['a'], resolveAsOf: '2023-06-01' }) });
    await env.client.workflow.execute<(i: unknown) => Promise<ConfirmStudySummary>>('confirmStudyWorkflow', { workflowId: 'confirm-dated-study/confirm-phantoms', taskQueue: worker.taskQueue, args: [{ study, maxTrials: 5 }] });
    const trials = callsOf('removalTrial') as RemovalTrialInput[];
    expect(trials.map((t) => [t.remove.declared, t.resolveAsOf])).toEqual([[[], '2023-06-01'], [['b'], '2023-06-01']]);
  }, 60000);
});
