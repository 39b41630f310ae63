import { CliAgent, type CliAgentOptions } from './cli';
import { OpenAIAgent } from './openai';
import { ReplayAgent } from './replay';
import { StaticAgent } from './static';
import type { AgentSpec } from './spec';
import type { Agent } from './types';

export type CreateAgentOptions = CliAgentOptions;

export function createAgent(spec: AgentSpec, env: NodeJS.ProcessEnv = process.env, options: CreateAgentOptions = {}): Agent {
  switch (spec.kind) {
    case 'replay':
      return new ReplayAgent(spec);
    case 'cli':
      return new CliAgent(spec, env, options);
    case 'openai':
      return new OpenAIAgent(spec, env);
    case 'static':
      return new StaticAgent(spec);
  }
}

export { AgentSpec, parseAgentSpec } from './spec';
export { AgentAbortedError, AgentInputError, AgentOutputError, type Agent, type AgentRequest, type AgentResponse } from './types';
