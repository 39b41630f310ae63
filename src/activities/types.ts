import type { PromptEnvironment } from '../domain/promptEnvironment';
import type { AgentSpec } from '../agents/spec';
import type { AgentCallFailure, ErrorClass, Language } from '../domain/instance';
import type { NameList } from '../domain/nameList';
import type { RunSpec } from '../domain/runSpec';
import type { InstanceObservations, InstanceRecordDraft } from '../domain/record';
import type { ContainerLimits, InstanceInput, TaskRef } from '../domain/study';

export interface AgentCallInput {
  instanceId: string;
  agent: AgentSpec;
  task: TaskRef;
  language: Language;
  trial: number;
  iteration: number;
  budget: number;
  previousFilesHash: string | null;
  error: { class: ErrorClass | null; hash: string } | null;
  /** The blob of the agent's session from its previous call (base64 of its archive), to continue; absent: a fresh session. */
  previousSessionHash?: string | null;
  /** The environment the prompts state (the study's `prompt_environment`); absent in instances started before it existed: `paper`. */
  promptEnvironment?: PromptEnvironment;
}

interface AgentCallCost {
  tokensIn: number | null;
  tokensOut: number | null;
  costUsd: number | null;
  durationMs: number;
  /** How many times the agent was asked in this call (more than one when an answer was unusable). */
  samples?: number;
}

/**
 * What one agent call gave: a project, or (after every sample was unusable: not JSON, the wrong
 * shape, an unsafe path) the validation message, stored as a blob, which is the agent's failure.
 * Histories recorded before `kind` existed hold projects only, so a missing kind is a project.
 */
export type AgentCallResult =
  | (AgentCallCost & { kind?: 'project'; filesHash: string; fileCount: number; author?: 'agent' | 'human'; run?: RunSpec; sessionHash?: string })
  /** The agent's failed call: its class (AgentCrash, AgentTimeout, ...; absent: AgentOutput, an unusable answer). */
  | (AgentCallCost & { kind: 'unusable'; errorHash: string; message: string; errorClass?: AgentCallFailure; sessionHash?: string })
  | (AgentCallCost & { kind: 'gave-up'; message: string });

import type { ExecutionOutcome } from '../domain/execution';
export type { DeclaredResult, ExecutionArtefacts, ExecutionOutcome, ExecutionStep } from '../domain/execution';

export interface ExecuteInput {
  instanceId: string;
  iteration: number;
  language: Language;
  filesHash: string;
  limits: ContainerLimits;
  /** How to run the program (arguments, stdin, env), where the iteration says; absent: no arguments, empty stdin. */
  run?: RunSpec;
  /** Bring D1 of these files along (the first usable project, M0). */
  declare?: boolean;
  /** Resolve the install as the registries stood on this day (YYYY-MM-DD, the study's `resolve_as_of`); absent: today's. */
  resolveAsOf?: string;
  /** The instance and what it observed before this iteration: where this execution ends it, its record is stored with the execution. */
  instance?: { input: InstanceInput; observations: InstanceObservations };
}

/** Gen or Repair, then Execute of the answer (src/activities/answerAndExecute.ts): the execution takes the answer's project and run. */
export interface AnswerAndExecuteInput {
  call: AgentCallInput;
  execute: Omit<ExecuteInput, 'filesHash' | 'run'>;
}

/** The agent's answer, and its execution where it was a project. */
export interface AnswerAndExecuteResult {
  answer: AgentCallResult;
  outcome: ExecutionOutcome | null;
}

export type { LayersResult } from '../domain/execution';

export interface RecordInstanceInput {
  input: InstanceInput;
  /** Lists may be blob references (histories before that hold plain lists, which are drafts too). */
  record: InstanceRecordDraft;
}
