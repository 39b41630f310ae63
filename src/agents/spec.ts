// The agent spec is domain data (a study names its agents); its schema lives in src/domain/agentSpec.ts.
export { AgentSpec, CliSpec, OpenAISpec, ReplaySpec, parseAgentSpec } from '../domain/agentSpec';
