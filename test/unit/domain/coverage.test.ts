import { describeCoverage, runCoverage, type RunCoverage } from '../../../src/domain/coverage';
import type { ExecutionOutcome } from '../../../src/domain/execution';
import { InstanceRecord } from '../../../src/domain/instance';
import { observationsEndingWith, withDeclared } from '../../../src/domain/observations';
import { buildInstanceRecord, type InstanceObservations } from '../../../src/domain/record';
import { DEFAULT_LIMITS, type InstanceInput } from '../../../src/domain/study';

const coverage: RunCoverage = { tool: 'v8', unit: 'line', total: 27, executed: 19, share: 0.704, files: 2, files_executed: 1 };
const start: InstanceObservations = { outcomes: [], firstErrorClass: null, declared: null, installed: null, traced: null, tracedBuild: null, tracedDebianPackages: null, error: null };
const declared = { names: ['kind-of'], manifestStatus: 'present' as const, problem: null, testScoped: [] };
const layers = { installed: ['kind-of'], traced: ['kind-of'], tracedDebianPackages: null, tracedBuild: null };
const passed: ExecutionOutcome = { success: true, failedStep: null, errorClass: null, errorHash: null, exitCode: 0, artefacts: { log: 'l' }, durations: {}, layers, declared, coverage };
const input: InstanceInput = {
  instanceId: 's/replay/javascript/p_01/1', study: 's', agent: { kind: 'replay', name: 'replay', path: '/r' }, language: 'javascript',
  task: { id: 'p_01', title: 't', domain: 'd' }, trial: 1, budget: 1, limits: DEFAULT_LIMITS,
};

test('a coverage from its counts, rounded, and none where there is no code to count', () => {
  expect(runCoverage('v8', 'line', { total: 27, executed: 19, files: 2, filesExecuted: 1 })).toEqual(coverage);
  expect(runCoverage('coverage.py', 'statement', { total: 0, executed: 0, files: 0, filesExecuted: 0 })).toBeNull();
  expect(describeCoverage(coverage)).toBe("70% of the project's own code (19 of 27 lines, 1 of 2 files; V8)");
});

test('the final run’s coverage goes into the record beside D3, and only with a success', () => {
  const ok = buildInstanceRecord(input, observationsEndingWith(withDeclared(start, declared), 0, 1, passed)!);
  expect(InstanceRecord.parse(ok)).toMatchObject({ status: 'success', traced: ['kind-of'], coverage });
  const failed: ExecutionOutcome = { ...passed, success: false, failedStep: 'run', errorClass: 'Runtime', errorHash: 'e', exitCode: 1, layers: { ...layers, traced: null } };
  expect(buildInstanceRecord(input, observationsEndingWith(withDeclared(start, declared), 0, 0, failed)!)).not.toHaveProperty('coverage');
  const before = buildInstanceRecord(input, observationsEndingWith(withDeclared(start, declared), 0, 1, { ...passed, coverage: undefined })!);
  expect(JSON.stringify(before)).not.toContain('coverage');
});
