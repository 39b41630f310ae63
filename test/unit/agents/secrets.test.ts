import { knownSecrets, MIN_SECRET_CHARS, redactError, redactFiles, redactSecrets } from '../../../src/agents/secrets';
import type { AgentSpec } from '../../../src/agents/spec';
import { encodeBinary, fileBytes } from '../../../src/domain/files';

const openai = (api_key_env?: string): AgentSpec => ({ kind: 'openai', name: 'o', base_url: 'http://x/', model: 'm', timeout_s: 10, ...(api_key_env && { api_key_env }) });
const cli = (env: string[]): AgentSpec => ({ kind: 'cli', name: 'c', command: 'true', timeout_s: 10, env });

describe('knownSecrets', () => {
  it('openai: the value of api_key_env, whatever it looks like', () => {
    expect(knownSecrets(openai('MY_KEY'), { MY_KEY: 'plain-words-key', OTHER: 'sk-other-0123456789' })).toEqual([{ name: 'MY_KEY', value: 'plain-words-key' }]);
    expect(knownSecrets(openai(), { MY_KEY: 'sk-0123456789' })).toEqual([]);
  });

  it('cli: variables named in env that are named like secrets or hold something key-like, longest first', () => {
    const env = {
      ANTHROPIC_API_KEY: 'sk-ant-0123456789abcdef',
      GH_TOKEN: 'ghp_short1',
      OPAQUE: 'AbCdEf0123456789xyz',
      MODEL: 'claude-sonnet-4-5',
      PYTHONPATH: '/usr/lib/python3/dist-packages',
      NOT_PASSED_TOKEN: 'tok-0123456789abcdef',
    };
    expect(knownSecrets(cli(['ANTHROPIC_API_KEY', 'GH_TOKEN', 'OPAQUE', 'MODEL', 'PYTHONPATH', 'UNSET_KEY']), env)).toEqual([
      { name: 'ANTHROPIC_API_KEY', value: 'sk-ant-0123456789abcdef' },
      { name: 'OPAQUE', value: 'AbCdEf0123456789xyz' },
      { name: 'GH_TOKEN', value: 'ghp_short1' },
    ]);
  });

  it(`never counts a value under ${MIN_SECRET_CHARS} characters, and none for replay`, () => {
    expect(knownSecrets(cli(['A_TOKEN']), { A_TOKEN: '1234567' })).toEqual([]);
    expect(knownSecrets(openai('K'), { K: 'short' })).toEqual([]);
    expect(knownSecrets({ kind: 'replay', name: 'r', path: '/x' }, { K: 'sk-0123456789abcdef' })).toEqual([]);
  });
});

describe('redactSecrets', () => {
  const secrets = [
    { name: 'LONG_KEY', value: 'sk-0123456789-extended' },
    { name: 'MY_KEY', value: 'sk-0123456789' },
  ];

  it('replaces every occurrence with the variable name', () => {
    expect(redactSecrets('a sk-0123456789 b sk-0123456789-extended c sk-0123456789', secrets)).toBe(
      'a [redacted:MY_KEY] b [redacted:LONG_KEY] c [redacted:MY_KEY]',
    );
    expect(redactSecrets('nothing here', secrets)).toBe('nothing here');
    expect(redactSecrets('x', [])).toBe('x');
  });

  it('redacts file contents and paths', () => {
    expect(redactFiles({ 'main.py': 'KEY = "sk-0123456789"\n', 'sk-0123456789.txt': 'x' }, secrets)).toEqual({
      'main.py': 'KEY = "[redacted:MY_KEY]"\n',
      '[redacted:MY_KEY].txt': 'x',
    });
  });

  it("leaves a binary file's content as it is (redacting base64 would corrupt it), its path redacted", () => {
    const key = [{ name: 'K', value: 'AbCdEf0123456789' }];
    // bytes whose base64 spells the secret: a text replacement would change them
    const bytes = Buffer.from('AbCdEf0123456789', 'base64');
    const png = encodeBinary(bytes);
    expect(png).toContain('AbCdEf0123456789');
    const out = redactFiles({ 'img.png': png, 'AbCdEf0123456789.bin': png, 'a.txt': 'AbCdEf0123456789' }, key);
    expect(out).toEqual({ 'img.png': png, '[redacted:K].bin': png, 'a.txt': '[redacted:K]' });
    expect(fileBytes(out['img.png']).equals(bytes)).toBe(true);
  });

  it('redacts an error in place, message and stack', () => {
    const err = redactError(new Error('HTTP 401: bad key sk-0123456789'), secrets);
    expect(err.message).toBe('HTTP 401: bad key [redacted:MY_KEY]');
    expect(err.stack).not.toContain('sk-0123456789');
  });
});
