import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ReplayAgent } from '../../../src/agents/replay';
import { AgentGaveUpError, AgentInputError } from '../../../src/agents/types';
import { fileBytes, isBinaryContent, MAX_PROJECT_BYTES } from '../../../src/domain/files';
import { agentRequest } from './request';

function write(root: string, rel: string, content: string): void {
  const target = path.join(root, rel);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, content);
}

describe('ReplayAgent', () => {
  let corpus: string;
  let agent: ReplayAgent;

  beforeAll(() => {
    corpus = fs.mkdtempSync(path.join(os.tmpdir(), 'replay-'));
    const instance = 'python/p_01/1';
    write(corpus, `${instance}/0/main.py`, 'import yaml\n');
    write(corpus, `${instance}/0/requirements.txt`, '');
    write(corpus, `${instance}/0/.replay.json`, JSON.stringify({ tokens_in: 1200, tokens_out: 3400, cost_usd: 0.05 }));
    write(corpus, `${instance}/1/main.py`, 'import yaml\n');
    write(corpus, `${instance}/1/requirements.txt`, 'PyYAML==6.0.1\n');
    write(corpus, `${instance}/1/pkg/.hidden/util.py`, 'x = 1\n');
    agent = new ReplayAgent({ kind: 'replay', name: 'rec', path: corpus });
  });
  afterAll(() => fs.rmSync(corpus, { recursive: true, force: true }));

  it('returns the files of folder n for iteration n, with recorded usage', async () => {
    const gen = await agent.call(agentRequest({ iteration: 0 }));
    expect(gen.files).toEqual({ 'main.py': 'import yaml\n', 'requirements.txt': '' });
    expect(gen).toMatchObject({ tokensIn: 1200, tokensOut: 3400, costUsd: 0.05 });
    expect(gen.durationMs).toBeGreaterThanOrEqual(0);

    const repair = await agent.call(agentRequest({ iteration: 1 }));
    expect(repair.files).toEqual({ 'main.py': 'import yaml\n', 'pkg/.hidden/util.py': 'x = 1\n', 'requirements.txt': 'PyYAML==6.0.1\n' });
    expect(repair).toMatchObject({ tokensIn: null, tokensOut: null, costUsd: null });
  });

  it('with a spec\'s trial, plays that recorded trial back for every trial (the noise floor)', async () => {
    const fixed = new ReplayAgent({ kind: 'replay', name: 'rec', path: corpus, trial: 1 });
    for (const trial of [1, 2, 3]) expect((await fixed.call(agentRequest({ iteration: 0, trial }))).files).toEqual({ 'main.py': 'import yaml\n', 'requirements.txt': '' });
    await expect(agent.call(agentRequest({ iteration: 0, trial: 2 }))).rejects.toThrow(/no recording of python\/p_01 trial 2/);
    await expect(new ReplayAgent({ kind: 'replay', name: 'rec', path: corpus, trial: 4 }).call(agentRequest({ iteration: 0 }))).rejects.toThrow(/no recording of python\/p_01 trial 4/);
  });

  it('asked for the Repair after the last recorded iteration, says the agent gave up', async () => {
    const call = agent.call(agentRequest({ iteration: 2 }));
    await expect(call).rejects.toBeInstanceOf(AgentGaveUpError);
    await expect(agent.call(agentRequest({ iteration: 2 }))).rejects.toThrow(`${path.join(corpus, 'python/p_01/1')} ends after iteration 1, which failed: the agent gave up`);
  });

  it('refuses an iteration beyond the next one, saying how many iterations exist', async () => {
    await expect(agent.call(agentRequest({ iteration: 5 }))).rejects.toThrow(
      new AgentInputError(`replay agent "rec": ${path.join(corpus, 'python/p_01/1')} records 2 iteration(s) (0..1); iteration 5 was asked for`),
    );
  });

  it('says which iterations a person wrote', async () => {
    write(corpus, 'python/p_01/1/1/.replay.json', '{"author": "human"}');
    expect(await agent.call(agentRequest({ iteration: 1 }))).toMatchObject({ author: 'human' });
    expect((await agent.call(agentRequest({ iteration: 0 }))).author).toBeUndefined();
    write(corpus, 'python/p_01/1/1/.replay.json', '{"author": "robot"}');
    await expect(agent.call(agentRequest({ iteration: 1 }))).rejects.toThrow(/not valid replay metadata/);
    fs.rmSync(path.join(corpus, 'python/p_01/1/1/.replay.json'));
  });

  it('gives the run a recording asks for, refusing a bad one or one said twice', async () => {
    const meta = 'python/p_01/1/1/.replay.json';
    write(corpus, meta, JSON.stringify({ run: { args: ['data.csv'], stdin: 'y\n', env: { LANG: 'C.UTF-8' } } }));
    expect((await agent.call(agentRequest({ iteration: 1 }))).run).toEqual({ args: ['data.csv'], stdin: 'y\n', env: { LANG: 'C.UTF-8' } });
    expect((await agent.call(agentRequest({ iteration: 0 }))).run).toBeUndefined();
    write(corpus, meta, JSON.stringify({ run: { args: [1] } }));
    await expect(agent.call(agentRequest({ iteration: 1 }))).rejects.toThrow(/not valid replay metadata[\s\S]*run\.args\[0\]|not valid replay metadata[\s\S]*expected string/);
    write(corpus, meta, JSON.stringify({ run: { args: ['x'] } }));
    write(corpus, 'python/p_01/1/1/envgap.run.json', '{"args": ["y"]}');
    await expect(agent.call(agentRequest({ iteration: 1 }))).rejects.toThrow('says how to run it twice, in .replay.json ("run") and in envgap.run.json; keep one');
    fs.rmSync(path.join(corpus, meta));
    // The project's own run file is a project file: the activity reads it (src/agents/runFile.ts).
    expect((await agent.call(agentRequest({ iteration: 1 }))).files['envgap.run.json']).toBe('{"args": ["y"]}');
    fs.rmSync(path.join(corpus, 'python/p_01/1/1/envgap.run.json'));
  });

  it('keeps a recorded binary file (an image, a jar) byte for byte', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const jar = Buffer.from('504b0304140000000800', 'hex');
    const dir = path.join(corpus, 'python/p_bin/1/0');
    write(corpus, 'python/p_bin/1/0/main.py', 'print(1)\n');
    fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'assets/logo.png'), png);
    fs.writeFileSync(path.join(dir, 'lib.jar'), jar);
    const gen = await agent.call(agentRequest({ task: { id: 'p_bin', title: 't', domain: 'd' } }));
    expect(Object.keys(gen.files)).toEqual(['assets/logo.png', 'lib.jar', 'main.py']);
    expect(isBinaryContent(gen.files['assets/logo.png'])).toBe(true);
    expect(fileBytes(gen.files['assets/logo.png']).equals(png)).toBe(true);
    expect(fileBytes(gen.files['lib.jar']).equals(jar)).toBe(true);
    expect(gen.files['main.py']).toBe('print(1)\n');
  });

  it('refuses a recording over the project size limit, naming the folder, the total and the limit', async () => {
    const dir = path.join(corpus, 'python/p_huge/1/0');
    write(corpus, 'python/p_huge/1/0/main.py', 'print(1)\n');
    // A sparse file: its size counts though nothing of it is read.
    fs.writeFileSync(path.join(dir, 'data.bin'), '');
    fs.truncateSync(path.join(dir, 'data.bin'), MAX_PROJECT_BYTES);
    const err = await agent.call(agentRequest({ task: { id: 'p_huge', title: 't', domain: 'd' } })).catch((e: Error) => e);
    expect(err).toBeInstanceOf(AgentInputError);
    expect((err as Error).message).toBe(
      `replay agent "rec": ${dir} holds ${MAX_PROJECT_BYTES + 9} bytes of files, over the limit of ${MAX_PROJECT_BYTES} bytes (50 MiB) per project`,
    );
  });

  it('names the missing instance folder', async () => {
    await expect(agent.call(agentRequest({ trial: 3 }))).rejects.toThrow(
      new AgentInputError(`replay agent "rec": no recording of python/p_01 trial 3: ${path.join(corpus, 'python/p_01/3')} does not exist`),
    );
    await expect(agent.call(agentRequest({ language: 'java' }))).rejects.toBeInstanceOf(AgentInputError);
  });

  it('rejects malformed metadata', async () => {
    write(corpus, 'cpp/p_02/1/0/.replay.json', '{"tokens_in": "many"}');
    await expect(agent.call(agentRequest({ language: 'cpp', task: { id: 'p_02', title: 't', domain: 'd' } }))).rejects.toThrow(
      /not valid replay metadata/,
    );
  });

  describe('links to host files (issue 8)', () => {
    let host: string;
    const secret = () => path.join(host, 'host-secret.txt');
    beforeAll(() => {
      host = fs.mkdtempSync(path.join(os.tmpdir(), 'replay-host-'));
      fs.writeFileSync(secret(), 'HOST-SECRET\n');
    });
    afterAll(() => fs.rmSync(host, { recursive: true, force: true }));
    const request = (task: string) => agentRequest({ language: 'java', task: { id: task, title: 't', domain: 'd' } });

    it('refuses a hard link to a host file, naming it, and stores nothing of it', async () => {
      write(corpus, 'java/h_01/1/0/pom.xml', '<project/>');
      fs.linkSync(secret(), path.join(corpus, 'java/h_01/1/0/Main.java'));
      const err = await agent.call(request('h_01')).catch((e: Error) => e);
      expect(err).toBeInstanceOf(AgentInputError);
      expect((err as Error).message).toMatch(/holds hard links .*refused: Main\.java$/);
      expect((err as Error).message).not.toContain('HOST-SECRET');
    });

    it('refuses a symbolic link, as before', async () => {
      write(corpus, 'java/h_02/1/0/pom.xml', '<project/>');
      fs.symlinkSync(secret(), path.join(corpus, 'java/h_02/1/0/Main.java'));
      await expect(agent.call(request('h_02'))).rejects.toThrow(/not regular files \(symbolic links, FIFOs, sockets\) or cannot be read: Main\.java/);
    });

    it.each(['hard', 'symbolic'])('refuses .replay.json as a %s link, never quoting its target', async (kind) => {
      const dir = path.join(corpus, `java/h_meta_${kind}/1/0`);
      write(corpus, `java/h_meta_${kind}/1/0/pom.xml`, '<project/>');
      (kind === 'hard' ? fs.linkSync : fs.symlinkSync)(secret(), path.join(dir, '.replay.json'));
      const err = await agent.call(request(`h_meta_${kind}`)).catch((e: Error) => e);
      expect(err).toBeInstanceOf(AgentInputError);
      expect((err as Error).message).toMatch(kind === 'hard' ? /\.replay\.json is a hard link/ : /\.replay\.json is not a UTF-8 regular file/);
      expect((err as Error).message).not.toContain('HOST-SECRET');
    });
  });
});
