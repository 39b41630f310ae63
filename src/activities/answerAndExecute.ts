import { withAnswer } from '../domain/observations';
import type { AgentCallInput, AgentCallResult, AnswerAndExecuteInput, AnswerAndExecuteResult, ExecuteInput, ExecutionOutcome } from './types';

/** The two protocol steps the combined activity runs, as the worker's own activities provide them. */
export interface ProtocolSteps {
  callAgent(input: AgentCallInput): Promise<AgentCallResult>;
  executeProject(input: ExecuteInput): Promise<ExecutionOutcome>;
}

/**
 * Gen (or Repair) and then Execute in one activity, for agents whose answer is read on this worker
 * (replay, static): their call takes milliseconds, and the workflow task between it and the execution
 * cost more than the call. Both steps are the activities' own functions, run as they run alone; an
 * answer that is not a project is returned without an execution.
 */
export function createAnswerAndExecuteActivities(steps: ProtocolSteps) {
  return {
    async answerAndExecute(input: AnswerAndExecuteInput): Promise<AnswerAndExecuteResult> {
      const answer = await named('callAgent', steps.callAgent(input.call));
      if (answer.kind === 'gave-up' || answer.kind === 'unusable') return { answer, outcome: null };
      const { instance, ...execute } = input.execute;
      const outcome = await named('executeProject', steps.executeProject({
        ...execute,
        filesHash: answer.filesHash,
        ...(answer.run ? { run: answer.run } : {}),
        ...(instance ? { instance: { input: instance.input, observations: withAnswer(instance.observations, input.call.iteration, answer) } } : {}),
      }));
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
