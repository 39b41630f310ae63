import { withAnswer } from '../domain/observations';
import type { Answered } from './agent';
import type { AgentCallInput, AnswerAndExecuteInput, AnswerAndExecuteResult, ExecuteInput, ExecutionOutcome } from './types';

/** The two protocol steps the combined activity runs, as the worker's own activities provide them. */
export interface ProtocolSteps {
  /** The agent's answer, with its storing still under way. */
  answer(input: AgentCallInput): Promise<Answered>;
  /** The execution, which waits for `answerStored` before it stores its own (its row is the answer's). */
  executeProject(input: ExecuteInput, answerStored?: Promise<void>): Promise<ExecutionOutcome>;
}

/**
 * Gen (or Repair) and then Execute in one activity, for agents whose answer is read on this worker
 * (replay, static): their call takes milliseconds, and the workflow task between it and the execution
 * cost more than the call. Both steps are the activities' own functions; the answer is stored while
 * the container is made (its files are read back from memory). An answer that is not a project is
 * returned, stored, without an execution.
 */
export function createAnswerAndExecuteActivities(steps: ProtocolSteps) {
  return {
    async answerAndExecute(input: AnswerAndExecuteInput): Promise<AnswerAndExecuteResult> {
      const { result: answer, stored } = await named('callAgent', steps.answer(input.call));
      if (answer.kind === 'gave-up' || answer.kind === 'unusable') {
        await named('callAgent', stored);
        return { answer, outcome: null };
      }
      const answerStored = named('callAgent', stored);
      answerStored.catch(() => undefined); // awaited by the execution, seconds later
      const { instance, ...execute } = input.execute;
      const outcome = await named('executeProject', steps.executeProject({
        ...execute,
        filesHash: answer.filesHash,
        ...(answer.run ? { run: answer.run } : {}),
        ...(instance ? { instance: { input: instance.input, observations: withAnswer(instance.observations, input.call.iteration, answer) } } : {}),
      }, answerStored));
      return { answer, outcome };
    },
  };
}

/** A step's failure says which step failed (the record names the activity, answerAndExecute, before it). */
async function named<T>(step: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof Error) err.message = `${step}: ${err.message}`;
    throw err;
  }
}
