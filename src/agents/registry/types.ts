import type { z } from 'zod';
import type { AgentSpec, OracleSpec } from '../../domain/agentSpec';
import type { GoldAnswer, ReadmeAnswer } from '../../domain/readme';
import type { ReadmeInstanceSpec } from '../../domain/readmeStudy';
import type { CliPlaces, CliPrinted, ContainerExec, ContainerRun } from '../cliRun';
import type { CliUsage } from '../cliUsage';
import type { Agent } from '../types';
import type { Confinement } from '../confined/agentSandbox';
import type { PresetCallInput, PresetCallResult } from '../confined/presetCall';

/** The protocols an agent can take part in: the environment gap (Gen/Repair), README diagnosis, readiness. */
export const PROTOCOLS = ['gap', 'readme', 'readiness'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/** Every spec a study file may name, whichever protocol serves it. */
export type AnyAgentSpec = AgentSpec | OracleSpec;
export type AgentKindName = AnyAgentSpec['kind'];
export type SpecOf<K extends AgentKindName> = Extract<AnyAgentSpec, { kind: K }>;

export interface CreateAgentOptions {
  /** Parent folder for an unconfined cli agent's workspaces (unit tests); os.tmpdir() when absent. */
  workDir?: string;
  /** Docker and the settings, to confine an agent in a sandbox (workers always give them). */
  confinement?: Confinement;
}

interface Serves {
  /** Its spec in this protocol's study files where it differs from the kind's own (README's cli: `in_container`). */
  spec?: z.ZodType;
}

/** The environment gap protocol: the adapter that answers Gen and Repair (the callAgent activity's). */
export interface GapProtocol<S> extends Serves {
  create(spec: S, env: NodeJS.ProcessEnv, options: CreateAgentOptions): Agent;
}

/** What an answer cost: its time, and tokens and cost where the agent reports them. */
export interface Spent extends CliUsage {
  durationMs: number | null;
}

export const NOTHING_SPENT: Spent = { durationMs: null, tokensIn: null, tokensOut: null, costUsd: null };

/** What a README answer may use; each part is read only by the kinds that need it. */
export interface ReadmeRequest {
  prompt(): Promise<string>;
  gold(): Promise<GoldAnswer>;
  instance: ReadmeInstanceSpec | null;
  /** The study's limit on one answer. */
  timeoutS: number;
  /** This worker's environment, where the variables an agent is given come from. */
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Docker and the settings, to answer in a sandbox (workers always give them). */
  confinement?: Confinement;
  /** Names the answer's sandbox (derived from the agent and the prompt: a retry finds the same one). */
  key?: string;
}

/** A README answer: text still to be parsed, an answer already structured, or none (and why). */
export type ReadmeReply =
  | { kind: 'text'; text: string; spent: Spent }
  | { kind: 'answer'; answer: ReadmeAnswer; /** what the answer blob holds (a recording's own record) */ stored: unknown; spent: Spent }
  | { kind: 'none'; status: 'failed' | 'timeout'; problem: string; log: string | null; spent: Spent };

/** README diagnosis: one answer for one README, on this worker. */
export interface ReadmeProtocol<S> extends Serves {
  /**
   * The activity src/workflows/readme.ts calls for this kind (its dispatch on the kind; the names are in
   * committed histories). `cliAnswer` is also where a kind the workflow does not name answers.
   */
  activity: 'oracleAnswer' | 'replayAnswer' | 'openaiAnswer' | 'cliAnswer';
  /** Whether its answer may hold a setup script for Pass@1. */
  setupScript: boolean;
  answer(spec: S, request: ReadmeRequest): Promise<ReadmeReply>;
}

/** How src/workflows/readiness.ts runs a kind's session in the repository's container. */
export type ReadinessSession =
  /** A recording's steps, each its own activity. */
  | 'recorded-steps'
  /** One command (the agent's own loop) in the container: the runCliAgent activity. */
  | 'one-command'
  /** A model's turns and its tool calls, each its own activity. */
  | 'tool-loop';

/** A readiness session (and README's agent mode, which runs the same one-command session). */
export interface ReadinessProtocol<S> extends Serves {
  session: ReadinessSession;
  /** one-command: the agent's run in the container, through the sandbox's `exec` (the `cli` kind's template). */
  command?(spec: S, hostEnv: NodeJS.ProcessEnv, at: CliPlaces, exec: ContainerExec): Promise<Omit<ContainerRun, 'output'> & CliPrinted>;
  /** one-command: a preset's call in the sandbox (its tools and relay mounted when the container was opened). */
  run?(spec: S, ctx: Omit<PresetCallInput, 'spec'>): Promise<PresetCallResult>;
}

/**
 * One agent kind: its spec, and for each protocol how it serves it, or null where it cannot (a study
 * file that names it there is refused at the agent's line).
 */
export interface AgentKind<S extends { kind: string }> {
  kind: S['kind'];
  spec: z.ZodType<S>;
  protocols: {
    gap: GapProtocol<S> | null;
    readme: ReadmeProtocol<S> | null;
    readiness: ReadinessProtocol<S> | null;
  };
}
