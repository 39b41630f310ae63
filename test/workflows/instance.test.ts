import { ApplicationFailure } from '@temporalio/activity';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { AgentCallInput, ExecuteInput, ExecutionOutcome } from '../../src/activities/types';
import { observationsEndingWith } from '../../src/domain/observations';
import { buildInstanceRecord, recordFingerprint, type InstanceRecordDraft } from '../../src/domain/record';
import { expandStudy, INSTANCE_REVISION, type InstanceInput } from '../../src/domain/study';
import type { instanceWorkflow } from '../../src/workflows/instance';
import { startTestWorkflowWorker, startWorkflowEnvironment, type TestWorker } from '../helpers/workflowEnv';
import { failedAt, FakeActivities, INSTALLED, instanceInput, passed, project, projectOf, studyInput, unusable } from './fakes';

// The protocol's edges on the real workflow code, with fake activities: no Docker, no database.
let env: TestWorkflowEnvironment;
let worker: TestWorker;
const fake = new FakeActivities();

beforeAll(async () => {
  env = await startWorkflowEnvironment();
  worker = await startTestWorkflowWorker(env, 'wf-instance', fake.activities());
}, 120000);
afterAll(async () => {
  await worker?.stop();
  await env?.teardown();
});

function run(input: InstanceInput) {
  return env.client.workflow.execute<typeof instanceWorkflow>('instanceWorkflow', { workflowId: input.instanceId, taskQueue: worker.taskQueue, args: [input] });
}

const agentCalls = () => fake.callsOf('callAgent').map((c) => c.input as AgentCallInput);

describe('harness faults', () => {
  test('an activity that throws a plain Error on every attempt makes the record an error, after its retries', async () => {
    fake.use({
      executeProject: () => {
        throw new Error('docker daemon not answering');
      },
    });
    const i = instanceInput('fault-execute');
    const outcome = await run(i);
    expect(outcome).toMatchObject({ status: 'error', repairDepth: null });
    expect(fake.record(i.instanceId)).toMatchObject({
      status: 'error',
      repair_depth: null,
      first_error_class: null,
      installed: null,
      error: { kind: 'Error', message: 'answerAndExecute: executeProject: docker daemon not answering' },
    });
    expect(fake.callsOf('executeProject').map((c) => c.attempt)).toEqual([1, 2, 3]);
  }, 60000);

  test('an execution whose layers cannot be extracted (MissingArtefact) is an error too, not retried, not a failed instance', async () => {
    fake.use({
      executeProject: () => {
        throw ApplicationFailure.nonRetryable('the layers cannot be extracted: the execution recorded no "runTrace"', 'MissingArtefact');
      },
    });
    const i = instanceInput('fault-layers');
    await run(i);
    expect(fake.record(i.instanceId)).toMatchObject({
      status: 'error',
      error: { kind: 'MissingArtefact', message: 'answerAndExecute: executeProject: the layers cannot be extracted: the execution recorded no "runTrace"' },
    });
    expect(fake.callsOf('executeProject')).toHaveLength(1);
  }, 60000);

  test('an execution that did not bring the D1 or layers it should have (an activity worker of another build) makes the record an error, never a record with them missing', async () => {
    fake.use({ executeProject: () => ({ ...passed, layers: undefined, declared: undefined }) });
    const i = instanceInput('incomplete-execution');
    await run(i);
    expect(fake.record(i.instanceId)).toMatchObject({ status: 'error', error: { kind: 'IncompleteExecution', message: 'the final execution brought no D1 and D2/D3' } });
  }, 60000);

  test('an AgentInputError is not retried, even when the failure itself says retryable, and records an error', async () => {
    fake.use({
      callAgent: () => {
        // Retryable on purpose: the workflow's retry policy, not the failure's flag, must stop it.
        throw ApplicationFailure.retryable('replay agent: no recording for p_01', 'AgentInputError');
      },
    });
    const i = instanceInput('agent-input', { budget: 2 });
    const outcome = await run(i);
    expect(outcome.status).toBe('error');
    expect(fake.callsOf('callAgent')).toHaveLength(1);
    expect(fake.callsOf('executeProject')).toHaveLength(0);
    expect(fake.record(i.instanceId)).toMatchObject({
      status: 'error',
      iterations: 0,
      error: { kind: 'AgentInputError', message: 'answerAndExecute: callAgent: replay agent: no recording for p_01' },
    });
  }, 60000);
});

describe('how an iteration is run', () => {
  test("the run an answer asks for (envgap.run.json, .replay.json) goes to that iteration's execution only", async () => {
    const spec = { args: ['data.csv'], stdin: null, env: { PORT: '5000' } };
    fake.use({
      callAgent: (input) => (input.iteration === 0 ? { ...projectOf(input), run: spec } : projectOf(input)),
      executeProject: (input) => (input.iteration === 0 ? failedAt('run', 'Runtime') : passed),
    });
    const i = instanceInput('run-spec', { budget: 1 });
    await run(i);
    const executions = fake.callsOf('executeProject').map((c) => c.input as { iteration: number; run?: unknown });
    expect(executions.map((e) => [e.iteration, e.run])).toEqual([
      [0, spec],
      [1, undefined],
    ]);
  }, 60000);
});

describe('D2 (installed)', () => {
  test('is recorded when only the run failed', async () => {
    fake.use({ executeProject: () => failedAt('run', 'Runtime') });
    const i = instanceInput('d2-run');
    await run(i);
    expect(fake.record(i.instanceId)).toMatchObject({
      status: 'failed',
      first_error_class: 'Runtime',
      repair_depth: null,
      installed: INSTALLED,
      traced: null,
      declared: ['requests'],
    });
  }, 60000);

  test('is not recorded when the install failed', async () => {
    fake.use({ executeProject: () => failedAt('install', 'MissingDep') });
    const i = instanceInput('d2-install');
    await run(i);
    expect(fake.record(i.instanceId)).toMatchObject({ status: 'failed', first_error_class: 'MissingDep', installed: null, traced: null });
  }, 60000);

  test('is that of the last execution when Repair succeeds, with D3 traced', async () => {
    const layers = { installed: ['flask', 'werkzeug'], traced: ['flask'], tracedDebianPackages: null, tracedBuild: null };
    // Iteration 0's run fails after its install: it brings a D2 of its own, which is not the record's.
    fake.use({ executeProject: (input) => (input.iteration === 0 ? failedAt('run', 'Runtime', 'err-0') : { ...passed, layers }) });
    const i = instanceInput('repaired', { budget: 2 });
    const outcome = await run(i);
    expect(outcome).toMatchObject({ status: 'success', repairDepth: 1, iterations: 2, firstErrorClass: 'Runtime' });
    expect(agentCalls()[1]).toMatchObject({ iteration: 1, previousFilesHash: `${i.instanceId}@0`, error: { class: 'Runtime', hash: 'err-0' } });
    expect(fake.record(i.instanceId)).toMatchObject({ status: 'success', repair_depth: 1, installed: ['flask', 'werkzeug'], traced: ['flask'] });
  }, 60000);
});

describe('D1 and the agent call, in as few workflow tasks as they can', () => {
  test('the first execution is asked for D1 and brings it; after an unusable Gen, the first execution there is', async () => {
    const declared = { names: ['flask'], manifestStatus: 'present' as const, problem: null, testScoped: [] };
    fake.use({
      callAgent: (input) => (input.iteration === 0 ? project('p0') : project('p1')),
      executeProject: (input) => (input.iteration === 0 ? { ...failedAt('install', 'MissingDep'), declared } : passed),
    });
    const i = instanceInput('brought-d1', { budget: 1 });
    await run(i);
    expect(fake.callsOf('executeProject').map((c) => (c.input as ExecuteInput).declare)).toEqual([true, undefined]);
    expect(fake.record(i.instanceId)).toMatchObject({ status: 'success', repair_depth: 1, declared: ['flask'] });

    fake.use({ callAgent: (input) => (input.iteration === 0 ? unusable('agent-error-0') : project('p1')), executeProject: () => ({ ...passed, declared }) });
    const j = instanceInput('d1-after-unusable-gen', { budget: 1 });
    await run(j);
    expect(fake.callsOf('executeProject').map((c) => [(c.input as ExecuteInput).iteration, (c.input as ExecuteInput).declare])).toEqual([[1, true]]);
    expect(fake.record(j.instanceId)).toMatchObject({ status: 'success', first_error_class: 'AgentOutput', declared: ['flask'] });
  }, 60000);

  test('a replay agent answers in the activity that executes its answer; any other agent has an activity of its own on the task queue', async () => {
    fake.use({});
    await run(instanceInput('replay-with-execution'));
    expect(fake.calls.map((c) => c.name)).toEqual(['answerAndExecute', 'callAgent', 'executeProject', 'recordInstance']);
    expect(fake.callsOf('answerAndExecute').map((c) => c.local)).toEqual([false]);

    fake.use({});
    await run(instanceInput('cli-queued', { agent: { kind: 'cli', name: 'fake-cli', command: 'true' } as InstanceInput['agent'] }));
    expect(fake.callsOf('answerAndExecute')).toHaveLength(0);
    expect(fake.callsOf('callAgent').map((c) => c.local)).toEqual([false]);
    expect(fake.callsOf('executeProject')).toHaveLength(1);
  }, 60000);
});

describe('the workflow revision an instance carries', () => {
  const patchesAndUpserts = async (id: string) => {
    const events = (await env.client.workflow.getHandle(id).fetchHistory()).events ?? [];
    return {
      patches: events.map((e) => e.markerRecordedEventAttributes?.markerName).filter((name) => name === 'core_patch'),
      upserts: events.filter((e) => e.upsertWorkflowSearchAttributesEventAttributes).length,
      activities: events.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean),
    };
  };

  test('an instance of the current revision asks no patch: no patch marker, no search attribute upsert, the newest protocol steps', async () => {
    fake.use({});
    const i = instanceInput('revision-current');
    expect(i.revision).toBe(INSTANCE_REVISION);
    await run(i);
    expect(await patchesAndUpserts(i.instanceId)).toEqual({ patches: [], upserts: 0, activities: ['answerAndExecute'] });
  }, 60000);

  test('an instance started before revisions (none in its input) marks the deprecated patch it asked then and takes the same steps', async () => {
    fake.use({});
    const { revision: _none, ...before } = instanceInput('revision-none');
    await run(before);
    expect(await patchesAndUpserts(before.instanceId)).toEqual({ patches: ['core_patch'], upserts: 1, activities: ['answerAndExecute'] });
  }, 60000);

  test('a study starts its instances for the current revision', () => {
    expect(expandStudy(studyInput('revision-study')).map((i) => i.revision)).toEqual([INSTANCE_REVISION]);
  });
});

describe('the layers an execution brings along', () => {
  test('are the record\'s: nothing runs but the execution and, where it did not store the record, the recording', async () => {
    const layers = { installed: ['flask', 'werkzeug'], traced: ['flask'], tracedDebianPackages: null, tracedBuild: [] };
    fake.use({ executeProject: () => ({ ...passed, layers }) });
    const i = instanceInput('brought-layers');
    await run(i);
    expect(fake.calls.map((c) => c.name)).toEqual(['answerAndExecute', 'callAgent', 'executeProject', 'recordInstance']);
    expect(fake.record(i.instanceId)).toMatchObject({ status: 'success', installed: ['flask', 'werkzeug'], traced: ['flask'], traced_build: [] });
  }, 60000);
});

describe('the execution that ends an instance stores its record', () => {
  const layers = { installed: ['flask', 'werkzeug'], traced: ['flask'], tracedDebianPackages: null, tracedBuild: null };
  const declared = { names: ['flask'], manifestStatus: 'present' as const, problem: null, testScoped: [] };
  /** An execution that brings D1 and the layers, as the real one does; failing at iteration 0 when asked to. */
  const execution = (failFirst: boolean) => (input: ExecuteInput): ExecutionOutcome => {
    const base = failFirst && input.iteration === 0 ? failedAt('install', 'MissingDep') : { ...passed, layers, runKind: 'service' as const };
    return { ...base, ...(input.declare ? { declared } : {}) };
  };
  /** What the real activity does with `instance`: the pure steps, the record, its fingerprint. */
  const storing = (execute: (input: ExecuteInput) => ExecutionOutcome, fingerprintOf = recordFingerprint) => (input: ExecuteInput): ExecutionOutcome => {
    const outcome = execute(input);
    const ending = input.instance && observationsEndingWith(input.instance.observations, input.iteration, input.instance.input.budget, outcome);
    if (!ending) return outcome;
    stored.set(input.instanceId, buildInstanceRecord(input.instance!.input, ending));
    return { ...outcome, recorded: { fingerprint: fingerprintOf(stored.get(input.instanceId)!) } };
  };
  const stored = new Map<string, InstanceRecordDraft>();

  test.each([
    ['Gen succeeds', false, 1, 'human-free'],
    ['a Repair succeeds', true, 1, 'human-free'],
    ['the budget is spent', true, 0, 'human-free'],
    ['a person wrote the repair', true, 1, 'human'],
  ])('%s: the record stored with the execution is the one the workflow would store, and no recording activity runs', async (_, failFirst, budget, author) => {
    const callAgent = (input: AgentCallInput) => ({ ...projectOf(input), ...(author === 'human' && input.iteration === 1 ? { author: 'human' as const } : {}) });
    const id = `ends-${String(failFirst)}-${budget}-${author}`;
    fake.use({ callAgent, executeProject: execution(failFirst) });
    const w = instanceInput(`${id}-by-workflow`, { budget });
    await run(w);
    const byWorkflow = fake.record(w.instanceId);

    fake.use({ callAgent, executeProject: storing(execution(failFirst)) });
    const i = instanceInput(id, { budget });
    await run(i);
    expect(fake.callsOf('recordInstance')).toHaveLength(0);
    expect({ ...stored.get(i.instanceId), study: byWorkflow.study }).toEqual(byWorkflow);
    // Every execution is handed what the instance observed before it.
    const handed = fake.callsOf('executeProject').map((c) => (c.input as ExecuteInput).instance!.observations.outcomes);
    expect(handed).toEqual(failFirst && budget > 0 ? [[], [false]] : [[]]);
  }, 60000);

  test('an execution that does not end the instance stores none; a fingerprint that differs is stored again by the workflow', async () => {
    fake.use({ executeProject: storing(execution(true)) });
    const i = instanceInput('ends-later', { budget: 1 });
    await run(i);
    expect(fake.callsOf('executeProject').map((c) => (c.input as ExecuteInput).iteration)).toEqual([0, 1]);
    expect(fake.callsOf('recordInstance')).toHaveLength(0);
    expect(stored.get(i.instanceId)).toMatchObject({ status: 'success', repair_depth: 1, iterations: 2 });

    fake.use({ executeProject: storing(execution(false), () => 'fnv1a:00000000:0') });
    const j = instanceInput('ends-differently');
    await run(j);
    expect(fake.record(j.instanceId)).toEqual(stored.get(j.instanceId));
  }, 60000);
});

describe('an unusable agent output (AgentOutput)', () => {
  test('is a failed iteration that Repair is told about, with no previous project after an unusable Gen', async () => {
    fake.use({ callAgent: (input) => (input.iteration === 0 ? unusable('agent-error-0') : projectOf(input)) });
    const i = instanceInput('unusable-gen', { budget: 1 });
    const outcome = await run(i);
    expect(outcome).toMatchObject({ status: 'success', repairDepth: 1, iterations: 2, firstErrorClass: 'AgentOutput' });
    expect(agentCalls()[1]).toMatchObject({ iteration: 1, previousFilesHash: null, error: { class: 'AgentOutput', hash: 'agent-error-0' } });
    expect(fake.callsOf('executeProject').map((c) => c.input.iteration)).toEqual([1]);
    expect(fake.record(i.instanceId)).toMatchObject({ status: 'success', first_attempt_success: false, first_error_class: 'AgentOutput', repair_depth: 1 });
  }, 60000);

  test('leaves the last usable project as the one Repair sees', async () => {
    fake.use({
      callAgent: (input) => (input.iteration === 1 ? unusable('agent-error-1') : project(`p${input.iteration}`)),
      executeProject: (input) => (input.iteration === 0 ? failedAt('build', 'Build', 'err-0') : passed),
    });
    const i = instanceInput('unusable-repair', { budget: 2 });
    const outcome = await run(i);
    expect(agentCalls().map(({ iteration, previousFilesHash, error }) => ({ iteration, previousFilesHash, error }))).toEqual([
      { iteration: 0, previousFilesHash: null, error: null },
      { iteration: 1, previousFilesHash: 'p0', error: { class: 'Build', hash: 'err-0' } },
      { iteration: 2, previousFilesHash: 'p0', error: { class: 'AgentOutput', hash: 'agent-error-1' } },
    ]);
    expect(outcome).toMatchObject({ status: 'success', repairDepth: 2, iterations: 3, firstErrorClass: 'Build' });
  }, 60000);

  test('on every iteration is a failed instance, not an error, with nothing declared or installed', async () => {
    fake.use({ callAgent: (input) => unusable(`agent-error-${input.iteration}`) });
    const i = instanceInput('unusable-always', { budget: 1 });
    await run(i);
    expect(fake.callsOf('callAgent')).toHaveLength(2);
    expect(fake.callsOf('executeProject')).toHaveLength(0);
    expect(fake.record(i.instanceId)).toMatchObject({
      status: 'failed',
      first_error_class: 'AgentOutput',
      repair_depth: null,
      iterations: 2,
      declared: null,
      installed: null,
      error: null,
    });
  }, 60000);
});

describe('the environment the prompts state (prompt_environment)', () => {
  test('an instance carries its study\'s choice to every agent call; one without it (an older study) calls as before', async () => {
    fake.use({ executeProject: () => failedAt('install', 'MissingDep') });
    const told = instanceInput('prompt-environment', { promptEnvironment: 'actual', budget: 1 });
    await run(told);
    expect(agentCalls().map((c) => c.promptEnvironment)).toEqual(['actual', 'actual']);
    fake.use({});
    await run(instanceInput('prompt-environment-older'));
    expect(agentCalls()).toHaveLength(1);
    expect('promptEnvironment' in agentCalls()[0]).toBe(false);
  }, 60000);
});
