import type { AgentRequest } from '../../../src/agents/types';

export function agentRequest(overrides: Partial<AgentRequest> = {}): AgentRequest {
  return {
    instanceId: 's1/a/python/p_01/1',
    agent: 'a',
    task: { id: 'p_01', title: 'CSV Statistical Analyzer', domain: 'Data Processing' },
    language: 'python',
    trial: 1,
    iteration: 0,
    prompt: 'TASK: CSV Statistical Analyzer',
    previousFiles: null,
    error: null,
    ...overrides,
  };
}
