// Each agent kind is one module of ./registry (docs/agents.md, "Adding an agent kind").
export { createAgent, type CreateAgentOptions } from './registry';
export { AgentSpec, parseAgentSpec } from './spec';
export { AgentAbortedError, AgentInputError, AgentOutputError, type Agent, type AgentRequest, type AgentResponse } from './types';
