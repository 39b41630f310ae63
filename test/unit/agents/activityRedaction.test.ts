import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { createAgent } from '../../../src/agents';
import type { AgentSpec } from '../../../src/agents/spec';
import { AgentOutputError, type Agent } from '../../../src/agents/types';
import { callAgentWith as run } from '../../helpers/agentActivity';

// Issue 8: a model that echoes its key in a normal answer must not get the key stored.
const KEY = 'sk-live-0123456789abcdefSECRET';
const TOKEN = 'ghp_0123456789abcdefTOKEN';

describe('callAgent stores no known secret', () => {
  const saved = { ...process.env };
  beforeEach(() => {
    process.env.MY_KEY = KEY;
    process.env.MY_TOKEN = TOKEN;
  });
  afterEach(() => {
    for (const k of ['MY_KEY', 'MY_TOKEN']) if (saved[k] === undefined) delete process.env[k];
  });

  describe('an openai agent whose model echoes the key', () => {
    let server: http.Server;
    let baseUrl: string;
    beforeAll(async () => {
      server = http.createServer((req, res) => {
        const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        req.resume();
        req.on('end', () => {
          const files = [
            { path: 'main.py', content: `API_KEY = "${key}"\nprint("my key is ${key}")\n` },
            { path: 'requirements.txt', content: '' },
          ];
          const content = JSON.stringify({ files, note: `answered with ${key}` });
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ choices: [{ message: { content }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 2 } }));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('the files and the transcript are stored with the key redacted', async () => {
      const spec: AgentSpec = { kind: 'openai', name: 'local', base_url: baseUrl, model: 'm', api_key_env: 'MY_KEY', timeout_s: 10 };
      const { store, result } = run(spec);
      expect(await result).toMatchObject({ kind: 'project', fileCount: 2 });
      const all = store.stored.join('\n');
      // the agent itself did get the key, and the model echoed it
      expect(all).toContain('[redacted:MY_KEY]');
      expect(all).not.toContain(KEY);
      const files = store.stored.map((s) => JSON.parse(s.startsWith('{') ? s : 'null')).find((v) => v && 'main.py' in v);
      expect(files['main.py']).toBe('API_KEY = "[redacted:MY_KEY]"\nprint("my key is [redacted:MY_KEY]")\n');
      expect(store.stored.some((s) => s.includes('answered with [redacted:MY_KEY]'))).toBe(true); // the transcript
    });
  });

  it('a cli agent that prints and writes a variable it was given', async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'redact-cli-'));
    try {
      const command = `printf 'TOKEN=%s\\n' "$MY_TOKEN" > main.py; : > requirements.txt; echo "using $MY_TOKEN"`;
      const spec: AgentSpec = { kind: 'cli', name: 'c', command, timeout_s: 30, env: ['MY_TOKEN'] };
      const { store, result } = run(spec, (s) => createAgent(s, process.env, { workDir: work }));
      expect(await result).toMatchObject({ kind: 'project', fileCount: 2 });
      const all = store.stored.join('\n');
      expect(all).toContain('TOKEN=[redacted:MY_TOKEN]');
      expect(all).toContain('using [redacted:MY_TOKEN]');
      expect(all).not.toContain(TOKEN);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  it('the message of an unusable answer', async () => {
    const spec: AgentSpec = { kind: 'openai', name: 'o', base_url: 'http://127.0.0.1:9/', model: 'm', api_key_env: 'MY_KEY', timeout_s: 1 };
    const echoing: Agent = {
      name: 'o',
      call: async () => {
        throw new AgentOutputError(`not JSON: I will use the key ${KEY}`);
      },
    };
    const { store, result } = run(spec, () => echoing);
    const out = await result;
    expect(out).toMatchObject({ kind: 'unusable' });
    expect(JSON.stringify(out)).toContain('[redacted:MY_KEY]');
    expect(JSON.stringify(out) + store.stored.join('\n')).not.toContain(KEY);
  });
});
