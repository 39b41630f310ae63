import { createAgent, parseAgentSpec } from '../../../src/agents';
import { CliAgent } from '../../../src/agents/cli';
import { OpenAIAgent } from '../../../src/agents/openai';
import { ReplayAgent } from '../../../src/agents/replay';

describe('createAgent', () => {
  it('builds the adapter of each kind, named after its spec', () => {
    const replay = createAgent(parseAgentSpec({ kind: 'replay', name: 'rec', path: '/corpus' }));
    const cli = createAgent(parseAgentSpec({ kind: 'cli', name: 'claude', command: 'claude -p "$(cat {prompt_file})"' }));
    const openai = createAgent(parseAgentSpec({ kind: 'openai', name: 'local', base_url: 'http://127.0.0.1:8000/v1', model: 'm' }), {});
    expect(replay).toBeInstanceOf(ReplayAgent);
    expect(cli).toBeInstanceOf(CliAgent);
    expect(openai).toBeInstanceOf(OpenAIAgent);
    expect([replay.name, cli.name, openai.name]).toEqual(['rec', 'claude', 'local']);
  });
});
