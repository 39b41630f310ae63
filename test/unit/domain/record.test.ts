import { buildInstanceRecord, type InstanceObservations } from '../../../src/domain/record';
import { InstanceRecord, instanceId, parseInstanceId } from '../../../src/domain/instance';
import { DEFAULT_LIMITS, expandStudy, type InstanceInput, type StudyInput } from '../../../src/domain/study';

const input: InstanceInput = {
  instanceId: 's/a/python/p_01/1', study: 's', agent: { kind: 'replay', name: 'a', path: '/x' }, language: 'python',
  task: { id: 'p_01', title: 'T', domain: 'Data Processing' }, trial: 1, budget: 10, limits: DEFAULT_LIMITS,
};
const base: InstanceObservations = { outcomes: [], firstErrorClass: null, declared: ['a'], installed: null, traced: null, tracedBuild: null, tracedDebianPackages: null, error: null };

test('success at iteration 0', () => {
  const r = buildInstanceRecord(input, { ...base, outcomes: [true], installed: ['a', 'b'], traced: ['a'] });
  expect(InstanceRecord.parse(r)).toEqual(r);
  expect(r).toMatchObject({ status: 'success', first_attempt_success: true, repair_depth: 0, first_error_class: null, traced: ['a'], domain: 'Data Processing' });
});

test('repaired at depth 3 keeps the first error class', () => {
  const r = buildInstanceRecord(input, { ...base, outcomes: [false, false, false, true], firstErrorClass: 'MissingDep', traced: [] });
  expect(r).toMatchObject({ status: 'success', first_attempt_success: false, repair_depth: 3, first_error_class: 'MissingDep', iterations: 4 });
});

test('budget exhausted: failed, no depth, no trace', () => {
  const r = buildInstanceRecord(input, { ...base, outcomes: [false, false], firstErrorClass: 'Build', traced: ['x'] });
  expect(r).toMatchObject({ status: 'failed', repair_depth: null, traced: null });
});

test('an infrastructure error wins over any outcome and is not the agent\'s failure', () => {
  const r = buildInstanceRecord(input, { ...base, outcomes: [false], firstErrorClass: 'Runtime', error: { kind: 'DockerError', message: 'm' } });
  expect(r.status).toBe('error');
  expect(r.error).toEqual({ kind: 'DockerError', message: 'm' });
});

test('instance ids round-trip and bad ones are refused', () => {
  const k = { study: 's', agent: 'a', language: 'java' as const, task: 'p_02', trial: 3 };
  expect(parseInstanceId(instanceId(k))).toEqual(k);
  expect(() => parseInstanceId('s/a/cobol/p_01/1')).toThrow(/<study>\/<agent>/);
  expect(() => parseInstanceId('s/a/python/p_01')).toThrow();
});

test('a study expands to agents x languages x tasks x trials in a stable order', () => {
  const s: StudyInput = {
    name: 's', agents: [{ kind: 'replay', name: 'a', path: '/x' }, { kind: 'replay', name: 'b', path: '/y' }],
    languages: ['python', 'java'], tasks: [{ id: 'p_01', title: 't', domain: 'd' }], trials: 2, budget: 3, concurrency: 1, limits: DEFAULT_LIMITS,
  };
  const ids = expandStudy(s).map((i) => i.instanceId);
  expect(ids).toEqual([
    's/a/python/p_01/1', 's/a/python/p_01/2', 's/a/java/p_01/1', 's/a/java/p_01/2',
    's/b/python/p_01/1', 's/b/python/p_01/2', 's/b/java/p_01/1', 's/b/java/p_01/2',
  ]);
  expect(new Set(ids).size).toBe(ids.length);
});

test('per-language task lists replace the common list for their language', () => {
  const s: StudyInput = {
    name: 's', agents: [{ kind: 'replay', name: 'a', path: '/x' }], languages: ['python', 'cpp'],
    tasks: [{ id: 'p_01', title: 't', domain: 'd' }], tasksByLanguage: { cpp: [{ id: 'p_11', title: 't', domain: 'd' }] },
    trials: 1, budget: 3, concurrency: 1, limits: DEFAULT_LIMITS,
  };
  expect(expandStudy(s).map((i) => i.instanceId)).toEqual(['s/a/python/p_01/1', 's/a/cpp/p_11/1']);
});

test('run_kind with a success, timeout_kind with a first Timeout', () => {
  const service = buildInstanceRecord(input, { ...base, outcomes: [true], traced: [], runKind: 'service' });
  expect(InstanceRecord.parse(service)).toEqual(service);
  expect(service.run_kind).toBe('service');
  const repaired = buildInstanceRecord(input, { ...base, outcomes: [false, true], firstErrorClass: 'Timeout', firstTimeoutKind: 'silent', traced: [], runKind: 'program' });
  expect(InstanceRecord.parse(repaired)).toEqual(repaired);
  expect(repaired).toMatchObject({ run_kind: 'program', timeout_kind: 'silent', first_error_class: 'Timeout' });
  const failed = buildInstanceRecord(input, { ...base, outcomes: [false], firstErrorClass: 'Timeout', firstTimeoutKind: 'busy', runKind: 'program' });
  expect(failed).toMatchObject({ status: 'failed', timeout_kind: 'busy' });
  expect(failed.run_kind).toBeUndefined();
  expect(buildInstanceRecord(input, { ...base, outcomes: [false], firstErrorClass: 'Runtime', firstTimeoutKind: 'busy' }).timeout_kind).toBeUndefined();
});
