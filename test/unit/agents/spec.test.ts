import { AgentSpec, parseAgentSpec } from '../../../src/agents/spec';
import { literalSecretIn, secretInUrl } from '../../../src/domain/agentSpec';

describe('AgentSpec', () => {
  it('parses each kind and fills defaults', () => {
    expect(parseAgentSpec({ kind: 'replay', name: 'rec', path: 'corpus/x' })).toEqual({ kind: 'replay', name: 'rec', path: 'corpus/x' });
    expect(parseAgentSpec({ kind: 'cli', name: 'claude', command: 'claude -p "$(cat {prompt_file})"' })).toEqual({
      kind: 'cli',
      name: 'claude',
      command: 'claude -p "$(cat {prompt_file})"',
      timeout_s: 1800,
      env: [],
      run_file: true,
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
      run_file: true,
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

// Issue 8: a secret literally in a cli command line or in an openai base_url would go into the workflow
// input and so into the history; both are refused as the secret-looking keys are.
describe('literal secrets in a cli command', () => {
  it.each([
    ['claude --api-key sk-ant-api03-AbCdEfGhIjKlMnOp -p x', /Anthropic key/],
    ['OPENAI_API_KEY=sk-proj-AbCdEfGhIjKlMnOpQrSt codex exec x', /OpenAI-style key/],
    ['gemini --key AIzaSyAbCdEfGhIjKlMnOpQrStUvWxYz0123456 -p x', /Google API key/],
    ['GH=ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 agent', /GitHub token/],
    ['notify xoxb-1234567890-abcdefghij', /Slack token/],
    ['curl -H "Authorization: Bearer abcdef0123456789" https://x', /bearer token/],
    ['aider --no-git --openai-api-key hunter2hunter2', /passes a literal value to --openai-api-key/],
    ['agent --token=hunter2hunter2', /passes a literal value to --token/],
    ['agent --verbose --api-key "hunter2hunter2"', /passes a literal value to --api-key/],
    ['ANTHROPIC_API_KEY=hunter2hunter2 claude -p x', /assigns a literal value to ANTHROPIC_API_KEY/],
    ["export MY_SECRET='hunter2hunter2'; agent", /assigns a literal value to MY_SECRET/],
    ['curl "https://x/v1?api_key=hunter2hunter2"', /assigns a literal value to api_key/],
    ['curl -H "x-api-key: hunter2hunter2" https://x', /x-api-key header/],
  ])('refuses %s', (command, why) => {
    expect(literalSecretIn(command)).toMatch(why);
    let message = '';
    try {
      parseAgentSpec({ kind: 'cli', name: 'c', command });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/command never holds secrets; name an environment variable in env: and reference it as \$NAME/);
    expect(message).not.toMatch(/hunter2|AbCdEf|abcdef0123|1234567890/);
  });

  it.each([
    'claude -p "$(cat {prompt_file})" --output-format json --dangerously-skip-permissions',
    'codex exec --skip-git-repo-check --sandbox workspace-write --json "$(cat {prompt_file})"',
    'gemini -p "$(cat {prompt_file})" --yolo --output-format json',
    'aider --yes-always --no-git --message-file {prompt_file}',
    'aider --openai-api-key "$OPENAI_API_KEY" --message-file {prompt_file}',
    'agent --api-key=${OPENAI_API_KEY} --max-token 4096 --sort-key=abc',
    'ANTHROPIC_API_KEY="$MY_KEY" claude -p {prompt}',
    'curl -H "Authorization: Bearer $TOKEN" -H "x-api-key: ${KEY}" https://x',
    'agent --task-file {prompt_file} --key-file ~/.agent/key --token-budget 100000',
    'run-skill --sketch -p x',
  ])('lets %s through', (command) => {
    expect(literalSecretIn(command)).toBeNull();
    expect(parseAgentSpec({ kind: 'cli', name: 'c', command })).toMatchObject({ command });
  });
});

describe('secrets in an openai base_url', () => {
  it.each([
    ['https://me:hunter2@api.example.com/v1', /user info/],
    ['https://me@api.example.com/v1', /user info/],
    ['https://api.example.com/v1?key=hunter2', /query parameter "key"/],
    ['https://api.example.com/v1?apiKey=hunter2', /query parameter "apiKey"/],
    ['https://api.example.com/v1?access_token=hunter2', /query parameter "access_token"/],
    ['https://api.example.com/v1?x=1&sig=hunter2', /query parameter "sig"/],
    ['https://api.example.com/v1?password=hunter2', /query parameter "password"/],
    ['https://api.example.com/sk-AbCdEfGhIjKlMnOpQrSt/v1', /OpenAI-style key/],
  ])('refuses %s', (base_url, why) => {
    expect(secretInUrl(base_url)).toMatch(why);
    expect(() => parseAgentSpec({ kind: 'openai', name: 'o', base_url, model: 'm' })).toThrow(/base_url .*environment variable.*api_key_env/);
    expect(() => parseAgentSpec({ kind: 'openai', name: 'o', base_url, model: 'm' })).toThrow(expect.objectContaining({ message: expect.not.stringMatching(/hunter2|AbCdEf/) }));
  });

  it.each(['http://127.0.0.1:8000/v1', 'https://x.openai.azure.com/openai/deployments/d?api-version=2024-06-01', 'https://api.example.com/v1?model=m&region=eu'])(
    'lets %s through',
    (base_url) => expect(secretInUrl(base_url)).toBeNull(),
  );
});

describe('caps on a spec (issue 8)', () => {
  it('caps names, commands, paths, models, URLs, env lists, timeouts and max_tokens', () => {
    const bad = [
      { kind: 'replay', name: 'n'.repeat(65), path: 'p' },
      { kind: 'replay', name: 'r', path: 'p'.repeat(1025) },
      { kind: 'cli', name: 'c', command: 'x'.repeat(2049) },
      { kind: 'cli', name: 'c', command: 'x', env: Array.from({ length: 33 }, (_, i) => `V${i}`) },
      { kind: 'cli', name: 'c', command: 'x', env: ['V'.repeat(65)] },
      { kind: 'cli', name: 'c', command: 'x', timeout_s: 86_401 },
      { kind: 'openai', name: 'o', base_url: `https://a/${'v'.repeat(2048)}`, model: 'm' },
      { kind: 'openai', name: 'o', base_url: 'https://a/v1', model: 'm'.repeat(257) },
      { kind: 'openai', name: 'o', base_url: 'https://a/v1', model: 'm', max_tokens: 1_000_001 },
    ];
    for (const spec of bad) expect([spec, AgentSpec.safeParse(spec).error?.issues[0]?.message]).toEqual([spec, expect.stringMatching(/^at most /)]);
    expect(parseAgentSpec({ kind: 'cli', name: 'n'.repeat(64), command: 'x'.repeat(2048), env: Array.from({ length: 32 }, (_, i) => `V${i}`) })).toMatchObject({ kind: 'cli' });
  });

  it('refuses control characters, but a command may span lines', () => {
    expect(AgentSpec.safeParse({ kind: 'openai', name: 'o', base_url: 'https://a/v1', model: 'm\u0000' }).success).toBe(false);
    expect(AgentSpec.safeParse({ kind: 'replay', name: 'r', path: 'a\nb' }).success).toBe(false);
    expect(AgentSpec.safeParse({ kind: 'cli', name: 'c', command: 'x\u001b[2J' }).success).toBe(false);
    expect(AgentSpec.safeParse({ kind: 'cli', name: 'c', command: 'x\ud800' }).success).toBe(false);
    expect(AgentSpec.safeParse({ kind: 'cli', name: 'c', command: 'set -e\n\tclaude -p x 😀' }).success).toBe(true);
  });
});
