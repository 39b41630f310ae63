import { Context } from '@temporalio/activity';
import { createAnswerAndExecuteActivities } from '../../src/activities/answerAndExecute';
import type { AgentCallInput, AgentCallResult, AnswerAndExecuteInput, DeclaredResult, ExecuteInput, ExecutionOutcome, ExecutionStep, RecordInstanceInput } from '../../src/activities/types';
import type { ErrorClass } from '../../src/domain/instance';
import type { RunSpec } from '../../src/domain/runSpec';
import type { InstanceRecordDraft } from '../../src/domain/record';
import { DEFAULT_LIMITS, INSTANCE_REVISION, type InstanceInput, type StudyInput } from '../../src/domain/study';

/**
 * Fake activities for the workflow tier: plain functions under the names the workflows schedule,
 * which record what they were given and answer as the current test's script says. No Docker, no
 * database, no agent. Tests in a file run one after another, so each sets its script with `use`.
 */

/** What a fake callAgent answers: a project, or (the agent's output unusable after its samples) `unusable`. */
export type FakeAnswer = AgentCallResult;

export interface Script {
  callAgent(input: AgentCallInput, attempt: number): FakeAnswer | Promise<FakeAnswer>;
  /** The outcome; what it does not say of D1 and the layers, the fake execution brings as the real one does (`broughtAlong`). */
  executeProject(input: ExecuteInput, attempt: number): ExecutionOutcome | Promise<ExecutionOutcome>;
}

export interface Call {
  name: string;
  input: any;
  attempt: number;
  /** Whether it ran as a local activity. */
  local: boolean;
}

/** Gen and Repair answer a project whose hash names the instance and iteration. */
export const projectOf = (input: AgentCallInput): FakeAnswer => project(`${input.instanceId}@${input.iteration}`);
export const project = (filesHash: string): FakeAnswer => ({ kind: 'project', filesHash, fileCount: 2, tokensIn: null, tokensOut: null, costUsd: null, durationMs: 1 });
export const unusable = (errorHash: string): FakeAnswer => ({
  kind: 'unusable',
  errorHash,
  message: 'not JSON',
  tokensIn: null,
  tokensOut: null,
  costUsd: null,
  durationMs: 1,
});

export const passed: ExecutionOutcome = { success: true, failedStep: null, errorClass: null, errorHash: null, exitCode: 0, artefacts: { log: 'log' }, durations: {} };
export function failedAt(step: ExecutionStep, errorClass: ErrorClass, errorHash = `error-${step}`): ExecutionOutcome {
  return { success: false, failedStep: step, errorClass, errorHash, exitCode: 1, artefacts: { log: 'log' }, durations: {} };
}

export const INSTALLED = ['requests', 'urllib3'];
export const DECLARED: DeclaredResult = { names: ['requests'], problem: null };

/**
 * What the real execution brings along (src/activities/execute.ts), where the script's outcome does
 * not say otherwise: D1 where the workflow asked, D2 where the install ran, D3 where the run succeeded.
 */
export function broughtAlong(input: ExecuteInput, outcome: ExecutionOutcome): ExecutionOutcome {
  const layers = { installed: INSTALLED, traced: outcome.success ? ['requests'] : null, tracedDebianPackages: null, tracedBuild: null };
  return { ...(input.declare ? { declared: DECLARED } : {}), ...(outcome.success || outcome.failedStep === 'run' ? { layers } : {}), ...outcome };
}

const defaultScript: Script = {
  callAgent: projectOf,
  executeProject: () => passed,
};

export class FakeActivities {
  calls: Call[] = [];
  private script: Script = defaultScript;

  /** A new script for the next test (unset parts keep the defaults: projects that pass), calls cleared. */
  use(script: Partial<Script> = {}): this {
    this.script = { ...defaultScript, ...script };
    this.calls = [];
    return this;
  }

  callsOf(name: string): Call[] {
    return this.calls.filter((c) => c.name === name);
  }

  /** The records recordInstance was given, by instance id. */
  records(): Map<string, InstanceRecordDraft> {
    return new Map(this.callsOf('recordInstance').map((c) => [(c.input as RecordInstanceInput).input.instanceId, (c.input as RecordInstanceInput).record]));
  }

  record(instanceId: string): InstanceRecordDraft {
    const r = this.records().get(instanceId);
    if (!r) throw new Error(`recordInstance was not called for ${instanceId}; calls: ${this.calls.map((c) => c.name).join(', ')}`);
    return r;
  }

  /** The activities to register with a worker. */
  activities(): Record<string, (input: any) => Promise<unknown>> {
    const note = (name: string, input: unknown) => {
      const { attempt, isLocal } = Context.current().info;
      this.calls.push({ name, input, attempt, local: isLocal });
      return attempt;
    };
    const steps = {
      callAgent: async (input: AgentCallInput) => (await this.script.callAgent(input, note('callAgent', input))) as AgentCallResult,
      executeProject: async (input: ExecuteInput) => broughtAlong(input, await this.script.executeProject(input, note('executeProject', input))),
    };
    // The real composition of the two, over the fake steps: each is noted as it runs.
    const { answerAndExecute } = createAnswerAndExecuteActivities({ answer: async (input) => ({ result: await steps.callAgent(input), stored: Promise.resolve() }), executeProject: steps.executeProject });
    return {
      ...steps,
      answerAndExecute: async (input: AnswerAndExecuteInput) => {
        note('answerAndExecute', input);
        return answerAndExecute(input);
      },
      recordInstance: async (input: RecordInstanceInput) => {
        note('recordInstance', input);
      },
      recordStudy: async (input: unknown) => {
        note('recordStudy', input);
      },
      prepareImage: async (input: { language: string }) => {
        note('prepareImage', input);
        return { language: input.language, tag: `envgap-fake-${input.language}`, durationMs: 1 };
      },
    };
  }
}

/**
 * An activity that runs until it is cancelled, heartbeating; it rethrows the cancellation, as the
 * real activities do once their containers are gone. Unblocks itself after `maxMs` in any case.
 */
export async function untilCancelled(maxMs = 60000): Promise<never> {
  const ctx = Context.current();
  const beat = setInterval(() => ctx.heartbeat(), 50);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([ctx.cancelled, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`not cancelled within ${maxMs} ms`)), maxMs)))]);
    throw new Error('unreachable: ctx.cancelled only rejects');
  } finally {
    clearInterval(beat);
    clearTimeout(timer);
  }
}

export { waitFor } from '../helpers/waitFor';

export function instanceInput(name: string, overrides: Partial<InstanceInput> = {}): InstanceInput {
  return {
    instanceId: `${name}/fake/python/p_01/1`,
    study: name,
    agent: { kind: 'replay', name: 'fake', path: '/nonexistent' },
    language: 'python',
    task: { id: 'p_01', title: 'CSV Statistical Analyzer', domain: 'Data Processing' },
    trial: 1,
    budget: 0,
    limits: DEFAULT_LIMITS,
    revision: INSTANCE_REVISION,
    ...overrides,
  };
}

export function studyInput(name: string, overrides: Partial<StudyInput> & { historyLimit?: number } = {}): StudyInput & { historyLimit?: number } {
  return {
    name,
    agents: [{ kind: 'replay', name: 'fake', path: '/nonexistent' }],
    languages: ['python'],
    tasks: [{ id: 'p_01', title: 't', domain: 'd' }],
    trials: 1,
    budget: 0,
    concurrency: 1,
    limits: DEFAULT_LIMITS,
    ...overrides,
  };
}
