import { AgentSpec, parseAgentSpec } from '../../../src/agents/spec';

describe('AgentSpec', () => {
  it('parses each kind and fills defaults', () => {
    expect(parseAgentSpec({ kind: 'replay', name: 'rec', path: 'corpus/x' })).toEqual({ kind: 'replay', name: 'rec', path: 'corpus/x' });
    expect(parseAgentSpec({ kind: 'cli', name: 'claude', command: 'claude -p "$(cat {prompt_file})"' })).toEqual({
      kind: 'cli',
      name: 'claude',
      command: 'claude -p "$(cat {prompt_file})"',
      timeout_s: 1800,
      env: [],
    });
    expect(
      parseAgentSpec({ kind: 'openai', name: 'local', base_url: 'http://127.0.0.1:8000/v1', model: 'm', api_key_env: 'OPENAI_API_KEY', temperature: 0, max_tokens: 8000 }),
    ).toEqual({
      kind: 'openai',
      name: 'local',
      base_url: 'http://127.0.0.1:8000/v1',
      model: 'm',
      api_key_env: 'OPENAI_API_KEY',
      temperature: 0,
      max_tokens: 8000,
      timeout_s: 600,
    });
  });

  it.each([
    [{ kind: 'openai', name: 'o', base_url: 'https://api.example.com/v1', model: 'm', api_key: 'sk-123' }, '"api_key"'],
    [{ kind: 'cli', name: 'c', command: 'x', token: 't' }, '"token"'],
    [{ kind: 'cli', name: 'c', command: 'x', apiKey: 't' }, '"apiKey"'],
    [{ kind: 'replay', name: 'r', path: 'p', access_token: 't' }, '"access_token"'],
  ])('rejects a secret in the spec with a pointed message (%#)', (input, key) => {
    expect(() => parseAgentSpec(input)).toThrow(`key ${key} looks like a secret`);
    expect(() => parseAgentSpec(input)).toThrow(/environment variable/);
  });

  it('never echoes the secret value', () => {
    expect(() => parseAgentSpec({ kind: 'openai', name: 'o', base_url: 'https://a/v1', model: 'm', api_key: 'sk-very-secret' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('sk-very-secret') }),
    );
  });

  it('names other unknown keys plainly', () => {
    expect(() => parseAgentSpec({ kind: 'cli', name: 'c', command: 'x', timeout: 5 })).toThrow('unknown key(s) "timeout"');
  });

  it('rejects bad names, env var names, URLs and kinds', () => {
    expect(AgentSpec.safeParse({ kind: 'replay', name: 'a/b', path: 'p' }).success).toBe(false);
    expect(AgentSpec.safeParse({ kind: 'cli', name: 'c', command: 'x', env: ['NOT-A-NAME'] }).success).toBe(false);
    expect(AgentSpec.safeParse({ kind: 'openai', name: 'o', base_url: 'not a url', model: 'm' }).success).toBe(false);
    expect(AgentSpec.safeParse({ kind: 'openai', name: 'o', base_url: 'https://a/v1', model: 'm', api_key_env: 'sk-abc' }).success).toBe(false);
    expect(AgentSpec.safeParse({ kind: 'static', name: 's' }).success).toBe(false);
    expect(() => parseAgentSpec({ kind: 'cli', name: 'mine' })).toThrow(/invalid agent spec "mine"/);
  });
});
