import type { ExecutionOutcome, LayersResult } from '../../../src/domain/execution';
import { endsInstance, observationsEndingWith, withDeclared, withExecution, withFinalExecution, withIteration } from '../../../src/domain/observations';
import { buildInstanceRecord, recordFingerprint, type InstanceObservations } from '../../../src/domain/record';
import { DEFAULT_LIMITS, type InstanceInput } from '../../../src/domain/study';
import { InstanceRecord } from '../../../src/domain/instance';

const start: InstanceObservations = {
  outcomes: [], firstErrorClass: null, declared: null, installed: null, traced: null, tracedBuild: null, tracedDebianPackages: null, error: null,
  humanIterations: [], gaveUp: false,
};
const layers: LayersResult = { installed: ['flask', 'werkzeug'], traced: ['flask'], tracedDebianPackages: ['libc6'], tracedBuild: null };
const declared = { names: ['flask'], manifestStatus: 'present' as const, problem: null, testScoped: [] };
const passed: ExecutionOutcome = { success: true, failedStep: null, errorClass: null, errorHash: null, exitCode: 0, artefacts: { log: 'l' }, durations: {}, layers, declared };
const failedRun: ExecutionOutcome = { ...passed, success: false, failedStep: 'run', errorClass: 'Runtime', errorHash: 'e', exitCode: 1, layers: { ...layers, traced: null, tracedDebianPackages: null } };
const failedInstall: ExecutionOutcome = { ...passed, success: false, failedStep: 'install', errorClass: 'MissingDep', errorHash: 'e', exitCode: 1, layers: undefined, environment: undefined };
const input: InstanceInput = {
  instanceId: 's/replay/python/p_01/1', study: 's', agent: { kind: 'replay', name: 'replay', path: '/r' }, language: 'python',
  task: { id: 'p_01', title: 't', domain: 'd' }, trial: 1, budget: 1, limits: DEFAULT_LIMITS,
};

describe('the observation steps', () => {
  test('iteration 0 says how the first attempt failed; later iterations only add their success', () => {
    const timedOut = { success: false, errorClass: 'Timeout' as const, timeoutKind: 'silent' as const };
    const first = withIteration(start, 0, timedOut);
    expect(first).toMatchObject({ outcomes: [false], firstErrorClass: 'Timeout', firstTimeoutKind: 'silent' });
    const second = withIteration(first, 1, { success: true, errorClass: null });
    expect(second).toMatchObject({ outcomes: [false, true], firstErrorClass: 'Timeout', firstTimeoutKind: 'silent' });
    expect(start.outcomes).toEqual([]);
  });

  test('D1 brings the manifest it was read from', () => {
    expect(withDeclared(start, declared)).toMatchObject({ declared: ['flask'], manifest: { status: 'present', error: null, testScoped: [] } });
    expect(withDeclared(start, { names: ['x'] })).not.toHaveProperty('manifest');
  });

  test('an executed iteration: D1 where still missing (the first usable project), then its result', () => {
    const first = withExecution(start, 0, failedRun);
    expect(first).toMatchObject({ outcomes: [false], firstErrorClass: 'Runtime', declared: ['flask'] });
    expect(withExecution(first, 1, { ...passed, declared: { names: ['other'] } })).toMatchObject({ outcomes: [false, true], declared: ['flask'] });
  });

  test('the final execution: D2 where the install ran, D3 only where the run succeeded, with the versions it brought', () => {
    const versions = { blob: 'sha256:v', count: 2 };
    const d1 = withDeclared(start, declared);
    const ok = withFinalExecution(d1, { ...passed, installedVersions: versions });
    expect(ok).toMatchObject({ runKind: 'program', installed: layers.installed, traced: ['flask'], tracedDebianPackages: ['libc6'], installedVersions: versions, error: null });
    const runFailed = withFinalExecution(d1, failedRun);
    expect(runFailed).toMatchObject({ installed: layers.installed, traced: null });
    expect(runFailed).not.toHaveProperty('runKind');
    expect(withFinalExecution(d1, passed)).not.toHaveProperty('installedVersions');
    expect(withFinalExecution(d1, failedInstall)).toMatchObject({ installed: null, traced: null, error: null });
  });

  test('a final execution that did not bring D1 or the layers it yields leaves an error, not a record with them missing', () => {
    expect(withFinalExecution(withDeclared(start, declared), { ...passed, layers: undefined })).toMatchObject({
      installed: null,
      error: { kind: 'IncompleteExecution', message: 'the final execution brought no D2/D3' },
    });
    expect(withFinalExecution(start, failedInstall).error).toEqual({ kind: 'IncompleteExecution', message: 'the final execution brought no D1' });
  });
});

describe('an execution that ends its instance', () => {
  test('ends it where it succeeded or no Repair is left', () => {
    expect(endsInstance(0, 1, passed)).toBe(true);
    expect(endsInstance(0, 1, failedInstall)).toBe(false);
    expect(endsInstance(1, 1, failedInstall)).toBe(true);
  });

  test('yields the observations the workflow arrives at by the same steps', () => {
    const before = withIteration(withDeclared(start, declared), 0, { success: false, errorClass: 'MissingDep' });
    const ending = observationsEndingWith(before, 1, 1, passed)!;
    const stepwise = withFinalExecution(withExecution(before, 1, passed), passed);
    expect(ending).toEqual(stepwise);
    expect(buildInstanceRecord(input, ending)).toMatchObject({ status: 'success', repair_depth: 1, first_error_class: 'MissingDep', declared: ['flask'], traced: ['flask'] });
  });

  test('yields none where it does not end it, or did not bring D1 or the layers the record needs', () => {
    expect(observationsEndingWith(start, 0, 1, failedInstall)).toBeNull();
    expect(observationsEndingWith(start, 0, 0, { ...passed, declared: undefined })).toBeNull();
    expect(observationsEndingWith(withDeclared(start, declared), 0, 0, { ...passed, layers: undefined })).toBeNull();
    // A failed install yields no layers, so none are needed: the record is complete without.
    expect(observationsEndingWith(start, 0, 0, failedInstall)).toMatchObject({ outcomes: [false], firstErrorClass: 'MissingDep', declared: ['flask'], installed: null });
  });
});

describe('the record fingerprint', () => {
  test('is the same for the same record and differs for any change', () => {
    const record = buildInstanceRecord(input, observationsEndingWith(start, 0, 1, passed)!);
    const copy = JSON.parse(JSON.stringify(record));
    expect(recordFingerprint(copy)).toBe(recordFingerprint(record));
    expect(recordFingerprint(record)).toMatch(/^fnv1a:[0-9a-f]{8}:\d+$/);
    expect(recordFingerprint({ ...record, trial: 2 })).not.toBe(recordFingerprint(record));
    expect(recordFingerprint({ ...record, traced: ['flask', 'jinja2'] })).not.toBe(recordFingerprint(record));
  });
});

describe('the names kept beside D2 and D3', () => {
  const java: LayersResult = {
    installed: ['spring-boot-starter-web', 'spring-webmvc'],
    traced: ['spring-boot-starter-web', 'spring-webmvc'],
    tracedDebianPackages: null,
    tracedBuild: ['lombok'],
    installedTest: ['junit-jupiter', 'mockito-core'],
    installedProvided: [],
    tracedAggregated: ['spring-boot-starter-web'],
    tracedBase: [],
  };

  test('go into the record where the final execution brought them: beside D2 where the install ran, beside D3 where the run succeeded', () => {
    const ok = buildInstanceRecord(input, observationsEndingWith(withDeclared(start, declared), 0, 1, { ...passed, layers: java })!);
    expect(ok).toMatchObject({ installed_test: ['junit-jupiter', 'mockito-core'], installed_provided: [], traced_aggregated: ['spring-boot-starter-web'], traced_base: [] });
    expect(InstanceRecord.parse(ok)).toMatchObject({ installed_test: ['junit-jupiter', 'mockito-core'], traced_aggregated: ['spring-boot-starter-web'] });
    const runFailed = buildInstanceRecord(input, observationsEndingWith(withDeclared(start, declared), 0, 0, { ...failedRun, layers: { ...java, traced: null } })!);
    expect(runFailed).toMatchObject({ installed_test: ['junit-jupiter', 'mockito-core'] });
    expect(runFailed).not.toHaveProperty('traced_aggregated');
    expect(runFailed).not.toHaveProperty('traced_base');
  });

  test('are absent, not null, where an execution from before brought none: its record and fingerprint are as they were', () => {
    const record = buildInstanceRecord(input, observationsEndingWith(withDeclared(start, declared), 0, 1, passed)!);
    for (const field of ['installed_test', 'installed_provided', 'traced_aggregated', 'traced_base']) expect(record).not.toHaveProperty(field);
    expect(JSON.stringify(record)).not.toMatch(/installed_test|traced_aggregated|traced_base/);
  });
});
