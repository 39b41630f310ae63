import { createAnswerAndExecuteActivities } from '../../../src/activities/answerAndExecute';
import type { AgentCallInput, AgentCallResult, ExecuteInput, ExecutionOutcome } from '../../../src/activities/types';
import type { InstanceObservations } from '../../../src/domain/record';
import { DEFAULT_LIMITS, type InstanceInput } from '../../../src/domain/study';

const call: AgentCallInput = {
  instanceId: 's/replay/python/p_01/1', agent: { kind: 'replay', name: 'replay', path: '/r' }, task: { id: 'p_01', title: 't', domain: 'd' },
  language: 'python', trial: 1, iteration: 1, budget: 1, previousFilesHash: 'sha256:p0', error: { class: 'MissingDep', hash: 'sha256:e' },
};
const observations: InstanceObservations = {
  outcomes: [false], firstErrorClass: 'MissingDep', declared: ['flask'], installed: null, traced: null, tracedBuild: null, tracedDebianPackages: null, error: null,
  humanIterations: [], gaveUp: false,
};
const instance = { input: { instanceId: call.instanceId } as InstanceInput, observations };
const execute = { instanceId: call.instanceId, iteration: 1, language: 'python' as const, limits: DEFAULT_LIMITS, instance };
const passed: ExecutionOutcome = { success: true, failedStep: null, errorClass: null, errorHash: null, exitCode: 0, artefacts: { log: 'l' }, durations: {} };
const cost = { tokensIn: null, tokensOut: null, costUsd: null, durationMs: 1 };

function steps(answer: AgentCallResult, outcome: () => ExecutionOutcome = () => passed, stored: Promise<void> = Promise.resolve()) {
  const executed: ExecuteInput[] = [];
  const waitedFor: (Promise<void> | undefined)[] = [];
  const activities = createAnswerAndExecuteActivities({
    answer: async () => ({ result: answer, stored }),
    executeProject: async (input, answerStored) => {
      executed.push(input);
      waitedFor.push(answerStored);
      await answerStored;
      return outcome();
    },
  });
  return { ...activities, executed, waitedFor };
}

test("a project is executed as the agent answered it: its files, its run, and a person's iteration noted for the record", async () => {
  const run = { args: ['--fast'], stdin: null, env: {} };
  const s = steps({ kind: 'project', filesHash: 'sha256:p1', fileCount: 2, author: 'human', run, ...cost });
  const result = await s.answerAndExecute({ call, execute });
  expect(result).toEqual({ answer: expect.objectContaining({ filesHash: 'sha256:p1' }), outcome: passed });
  expect(s.executed).toEqual([{ ...execute, filesHash: 'sha256:p1', run, instance: { input: instance.input, observations: { ...observations, humanIterations: [1] } } }]);
});

test('an answer that is no project is returned without an execution', async () => {
  for (const answer of [
    { kind: 'unusable' as const, errorHash: 'sha256:u', message: 'not JSON', ...cost },
    { kind: 'gave-up' as const, message: 'the recording ends', ...cost },
  ]) {
    const s = steps(answer);
    expect(await s.answerAndExecute({ call, execute })).toEqual({ answer, outcome: null });
    expect(s.executed).toEqual([]);
  }
});

test("a step's failure says which step failed", async () => {
  const failing = createAnswerAndExecuteActivities({
    answer: async () => {
      throw new Error('no recording');
    },
    executeProject: async () => passed,
  });
  await expect(failing.answerAndExecute({ call, execute })).rejects.toThrow(/^callAgent: no recording$/);
  const s = steps({ kind: 'project', filesHash: 'sha256:p1', fileCount: 2, ...cost }, () => {
    throw new Error('docker daemon not answering');
  });
  await expect(s.answerAndExecute({ call, execute })).rejects.toThrow(/^executeProject: docker daemon not answering$/);
});

test('the execution starts while the answer is stored, and stores its own only after it; a failed storing fails the activity, named', async () => {
  let release!: () => void;
  const storing = new Promise<void>((resolve) => (release = resolve));
  const s = steps({ kind: 'project', filesHash: 'sha256:p1', fileCount: 2, ...cost }, () => passed, storing);
  const running = s.answerAndExecute({ call, execute });
  await new Promise((r) => setImmediate(r));
  expect(s.executed).toHaveLength(1);
  let done = false;
  void running.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  expect(done).toBe(false);
  release();
  expect(await running).toEqual({ answer: expect.objectContaining({ filesHash: 'sha256:p1' }), outcome: passed });

  const refused = Promise.reject(new Error('database gone'));
  refused.catch(() => undefined);
  const unusableAnswer = { kind: 'unusable' as const, errorHash: 'sha256:u', message: 'not JSON', ...cost };
  await expect(steps(unusableAnswer, () => passed, refused).answerAndExecute({ call, execute })).rejects.toThrow(/^callAgent: database gone$/);
  await expect(steps({ kind: 'project', filesHash: 'sha256:p1', fileCount: 2, ...cost }, () => passed, refused).answerAndExecute({ call, execute })).rejects.toThrow(/database gone/);
});
