import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { WORKFLOWS_PATH } from '../../src/workers/bundle';

// Committed histories of real runs (recorded by test/e2e/quickstart-study.test.ts with
// ENVGAP_RECORD_HISTORIES=SET), one set per deliberate change of the workflow code; each set holds the
// study's history and two of its instances' (one with a repair). Replaying them against today's code
// fails on any non-deterministic change, so such a change cannot land unnoticed, and a study begun on
// older code can still finish on this one. The instance histories of the sets before
// `answer-with-execution` took paths of the instance workflow that are retired: they are kept under
// `retired/` and not replayed here (test/fixtures/histories/retired/README.md names the build that
// replays them); those sets' study histories still replay. The README and readiness protocols' sets
// (`readme-*`, `readiness-*`, below) come from test/workflows/protocol-histories.test.ts and replay with
// the rest.
const dir = path.resolve(__dirname, '../fixtures/histories');
const RETIRED = 'retired/';
const files = fs
  .readdirSync(dir, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.json') && !f.startsWith(RETIRED))
  .sort();
const retired = fs.readdirSync(path.join(dir, RETIRED), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json'));

/** Instances started for revision 1 (no patch), and before revisions, asking the then newest patch, now deprecated. */
const INSTANCE_SETS = ['answer-with-execution', 'instance-revision'];
/** Sets whose instances took retired paths: their study histories replay, their instance histories are retired. */
const RETIRED_SETS = ['before-one-extraction', 'one-extraction', 'layers-with-execution', 'declared-with-execution', 'final-execution-records'];

test('committed histories exist for the study in each set, and for an instance with a repair in each set still replayed', () => {
  for (const set of [...RETIRED_SETS, ...INSTANCE_SETS]) expect(files).toContain(`${set}/quickstart.json`);
  for (const set of INSTANCE_SETS) expect(files).toContain(`${set}/quickstart_replay_python_p_30_1.json`);
  for (const set of RETIRED_SETS) expect(retired).toContain(path.join(set, 'quickstart_replay_python_p_30_1.json'));
  expect(fs.existsSync(path.join(dir, RETIRED, 'README.md'))).toBe(true);
});

/**
 * The README and readiness protocols' studies on the study engine (recorded by
 * test/workflows/protocol-histories.test.ts with ENVGAP_RECORD_HISTORIES=SET into `<protocol>-SET/`):
 * each set holds a study of every agent path with a harness fault, paused and resumed while running
 * and continued as new (every run of it), and a study with an instance cancelled while its activity ran.
 */
const PROTOCOL_SETS = {
  'readme-engine': {
    study: 'readme-engine',
    instances: ['rec', 'cli', 'box', 'gpt', 'oracle'].map((agent) => `readme-engine_${agent}_jaraco_inflect_error_readme_1_1`),
    error: 'readme-engine_gpt_psf_requests_error_readme_1_1',
    cancelStudy: 'readme-cancel',
    cancelled: 'readme-cancel_box_jaraco_inflect_error_readme_1_1',
  },
  'readiness-engine': {
    study: 'readiness-engine',
    instances: ['rec', 'cli', 'gpt'].map((agent) => `readiness-engine_${agent}_numpy-stats_1`),
    error: 'readiness-engine_gpt_tiny-mlp_1',
    cancelStudy: 'readiness-cancel',
    cancelled: 'readiness-cancel_rec_tiny-mlp_1',
  },
};
/**
 * The same studies recorded after a cancelled instance's session container (and frozen image) came to
 * be removed although it was cancelled, and its study to record it as an error (both patched); and the
 * readiness studies again once an instance traced its setup's precision (`readiness-setup-precision`).
 */
const REMOVAL_SETS = { 'readme-removal': PROTOCOL_SETS['readme-engine'], 'readiness-removal': PROTOCOL_SETS['readiness-engine'], 'readiness-setup-precision': PROTOCOL_SETS['readiness-engine'] };

interface JsonEvent {
  eventType: string;
  workflowExecutionSignaledEventAttributes?: { signalName?: string };
  workflowExecutionStartedEventAttributes?: { workflowType?: { name?: string } };
  markerRecordedEventAttributes?: { markerName?: string; details?: { 'patch-data'?: { payloads?: { data?: string }[] } } };
  activityTaskScheduledEventAttributes?: { activityType?: { name?: string } };
}
const eventsOf = (set: string, name: string): JsonEvent[] => (JSON.parse(fs.readFileSync(path.join(dir, set, `${name}.json`), 'utf8')) as { events: JsonEvent[] }).events;
const EVENT = (t: string) => `EVENT_TYPE_${t}`;

test.each(Object.entries({ ...PROTOCOL_SETS, ...REMOVAL_SETS }))('committed %s histories exist and hold every agent path, an error, a pause and resume, a continue-as-new and a cancelled instance', (set, want) => {
  const names = files.filter((f) => f.startsWith(`${set}/`)).map((f) => f.slice(set.length + 1).replace(/\.json$/, ''));
  for (const n of [want.study, `${want.study}.run2`, ...want.instances, want.error, want.cancelStudy, want.cancelled]) expect(names).toContain(n);
  // The study's runs, in order: pause and resume while instances ran, each run but the last handed over.
  const runs = names.filter((n) => n === want.study || n.startsWith(`${want.study}.run`)).sort((a, b) => Number(a.split('.run')[1] ?? 1) - Number(b.split('.run')[1] ?? 1));
  const chain = runs.map((r) => eventsOf(set, r));
  for (const run of chain.slice(0, -1)) expect(run[run.length - 1]!.eventType).toBe(EVENT('WORKFLOW_EXECUTION_CONTINUED_AS_NEW'));
  expect(chain[chain.length - 1]!.at(-1)!.eventType).toBe(EVENT('WORKFLOW_EXECUTION_COMPLETED'));
  const signals = chain.flat().map((e) => e.workflowExecutionSignaledEventAttributes?.signalName).filter(Boolean);
  expect(signals).toEqual(['pause', 'resume']);
  // The harness fault: an activity failed, the instance completed with its error recorded.
  const error = eventsOf(set, want.error).map((e) => e.eventType);
  expect(error).toContain(EVENT('ACTIVITY_TASK_FAILED'));
  expect(error.at(-1)).toBe(EVENT('WORKFLOW_EXECUTION_COMPLETED'));
  // The cancelled instance, and its study going on past it.
  expect(eventsOf(set, want.cancelled).at(-1)!.eventType).toBe(EVENT('WORKFLOW_EXECUTION_CANCELED'));
  const cancelStudy = eventsOf(set, want.cancelStudy).map((e) => e.eventType);
  expect(cancelStudy).toContain(EVENT('CHILD_WORKFLOW_EXECUTION_CANCELED'));
  expect(cancelStudy.at(-1)).toBe(EVENT('WORKFLOW_EXECUTION_COMPLETED'));
  if (set in REMOVAL_SETS) {
    // The cancelled instance removed its container after the cancellation; its study recorded it.
    const cancelled = eventsOf(set, want.cancelled).map((e) => e.eventType);
    expect(cancelled.lastIndexOf(EVENT('ACTIVITY_TASK_SCHEDULED'))).toBeGreaterThan(cancelled.indexOf(EVENT('WORKFLOW_EXECUTION_CANCEL_REQUESTED')));
    expect(cancelStudy.lastIndexOf(EVENT('ACTIVITY_TASK_SCHEDULED'))).toBeGreaterThan(cancelStudy.indexOf(EVENT('CHILD_WORKFLOW_EXECUTION_CANCELED')));
  }
});

test('today\'s workflow code replays every committed history but the retired ones without non-determinism', async () => {
  const histories = files.map((f) => ({
    workflowId: f.replace(/\.json$/, '').replace(/\//g, ':'),
    history: historyFromJSON(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))),
  }));
  const results = [];
  for await (const r of Worker.runReplayHistories({ workflowsPath: WORKFLOWS_PATH }, histories)) results.push(r);
  expect(results).toHaveLength(files.length);
  for (const r of results) expect({ id: r.workflowId, error: r.error?.message }).toEqual({ id: r.workflowId, error: undefined });
}, 120000);

/**
 * The readiness studies recorded again after an instance came to trace its setup's precision
 * (`probeSetupPrecision`, behind the patch `readiness-setup-precision`) once its pyramid stood: every
 * instance that reached its probes asks the patch and runs the step; the harness fault before the
 * probes and the cancelled instance do not.
 */
test('committed readiness-setup-precision histories ask the patch and trace the setup of every instance that reached its probes', () => {
  const set = 'readiness-setup-precision';
  const names = files.filter((f) => f.startsWith(`${set}/`)).map((f) => f.slice(set.length + 1).replace(/\.json$/, ''));
  const patchIds = (name: string) =>
    eventsOf(set, name)
      .filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')
      .map((e) => (JSON.parse(Buffer.from(e.markerRecordedEventAttributes!.details!['patch-data']!.payloads![0]!.data!, 'base64').toString('utf8')) as { id: string }).id);
  const traced = (name: string) => eventsOf(set, name).filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'probeSetupPrecision').length;
  const measured = ['rec', 'cli', 'gpt'].map((a) => `readiness-engine_${a}_numpy-stats_1`).concat(['rec', 'cli'].map((a) => `readiness-engine_${a}_tiny-mlp_1`), ['numpy-stats', 'ddp-cifar'].map((r) => `readiness-cancel_rec_${r}_1`));
  for (const n of measured) {
    expect(names).toContain(n);
    expect({ n, patches: patchIds(n), traced: traced(n) }).toEqual({ n, patches: ['readiness-setup-precision'], traced: 1 });
  }
  for (const n of ['readiness-engine_gpt_tiny-mlp_1', 'readiness-cancel_rec_tiny-mlp_1']) expect({ n, traced: traced(n) }).toEqual({ n, traced: 0 });
});

/**
 * Phantom confirmation (recorded by test/workflows/confirm-phantoms.test.ts with
 * ENVGAP_RECORD_HISTORIES=phantoms into `confirm-phantoms/`): instances whose input asks for it (behind
 * the patch `confirm-phantoms`: a needed name tried again with the unneeded gone, Maven bloat bisected,
 * a trial's harness fault), and `envgap study confirm-phantoms`'s study workflow with its children (one
 * confirmed, one skipped).
 */
test('committed confirm-phantoms histories hold confirmed instances and the command\'s study with its children', () => {
  const set = 'confirm-phantoms';
  const typeOf = (name: string) => eventsOf(set, name)[0]!.workflowExecutionStartedEventAttributes?.workflowType?.name;
  const activities = (name: string) => eventsOf(set, name).map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
  const patches = (name: string) => eventsOf(set, name).filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch').length;
  const instances = ['confirm-asked_fake_python_p_01_1', 'confirm-bloat_fake_java_p_01_1', 'confirm-harness-fault_fake_python_p_01_1'];
  for (const i of instances) {
    expect(files).toContain(`${set}/${i}.json`);
    expect({ i, type: typeOf(i), patches: patches(i) }).toEqual({ i, type: 'instanceWorkflow', patches: 1 });
    expect(activities(i)).toContain('planConfirmation');
    expect(activities(i)).toContain('removalTrial');
  }
  expect(activities('confirm-bloat_fake_java_p_01_1').filter((a) => a === 'removalTrial')).toHaveLength(9);
  expect(eventsOf(set, 'confirm-harness-fault_fake_python_p_01_1').map((e) => e.eventType)).toContain(EVENT('ACTIVITY_TASK_FAILED'));
  expect(typeOf('confirm-study_confirm-phantoms')).toBe('confirmStudyWorkflow');
  const study = eventsOf(set, 'confirm-study_confirm-phantoms').map((e) => e.eventType);
  expect(study.filter((t) => t === EVENT('CHILD_WORKFLOW_EXECUTION_COMPLETED'))).toHaveLength(2);
  expect(activities('confirm-study_fake_python_p_01_1_confirm-phantoms')).toEqual(['confirmationSubject', 'planConfirmation', 'removalTrial', 'removalTrial', 'storeConfirmation']);
  expect(activities('confirm-study_fake_python_p_02_1_confirm-phantoms')).toEqual(['confirmationSubject']);
});
