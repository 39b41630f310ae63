import { namedVariables, unsetVariables } from '../../../src/agents/namedVariables';
import { refuseUnsetVariables } from '../../../src/cli/unsetVariables';

describe('the variables agent specs name', () => {
  it("a preset names its key (the preset's usual name where the spec gives none) and its env", () => {
    expect(namedVariables({ kind: 'claude-code', env: [] })).toEqual(['ANTHROPIC_API_KEY']);
    expect(namedVariables({ kind: 'codex', api_key_env: 'MY_KEY', env: ['HTTPS_PROXY'] })).toEqual(['MY_KEY', 'HTTPS_PROXY']);
    expect(namedVariables({ kind: 'gemini-cli', env: [] })).toEqual(['GEMINI_API_KEY']);
  });

  it('a cli agent names its env, an openai agent its key where it has one, a replay none', () => {
    expect(namedVariables({ kind: 'cli', env: ['A', 'B'] })).toEqual(['A', 'B']);
    expect(namedVariables({ kind: 'openai', api_key_env: 'K' })).toEqual(['K']);
    expect(namedVariables({ kind: 'replay' })).toEqual([]);
  });

  it('a study naming an unset variable is refused before it starts, each agent and variable named', () => {
    const agents = [
      { kind: 'claude-code', name: 'claude', env: [] },
      { kind: 'cli', name: 'shell', env: ['TOKEN', 'SET'] },
      { kind: 'replay', name: 'rec' },
    ];
    expect(unsetVariables(agents, { SET: '1' })).toEqual(['agent "claude" (claude-code) names ANTHROPIC_API_KEY, not set in this environment', 'agent "shell" (cli) names TOKEN, not set in this environment']);
    expect(() => refuseUnsetVariables('s1', agents, true, { SET: '1' })).toThrow(/^study "s1" not started: agent "claude" \(claude-code\) names ANTHROPIC_API_KEY.*agent "shell" \(cli\) names TOKEN/);
    expect(() => refuseUnsetVariables('s1', agents, true, { SET: '1', ANTHROPIC_API_KEY: 'k', TOKEN: 't' })).not.toThrow();
  });
});
