import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CliAgent } from '../../../src/agents/cli';
import type { CliSpec } from '../../../src/agents/spec';
import { AgentInputError } from '../../../src/agents/types';
import { encodeBinary, fileBytes, MAX_PROJECT_BYTES } from '../../../src/domain/files';
import { pidRunning } from '../../../src/infra/procfs';
import { waitFor } from '../../helpers/waitFor';
import { agentRequest } from './request';

/** Fake agents: real shell scripts that behave like a command-line coding agent. */
const SCRIPTS: Record<string, string> = {
  'gen.sh': `
cat > main.py <<'PY'
import yaml
print("ok")
PY
echo 'PyYAML==6.0.1' > requirements.txt
echo "read $(wc -c < "$1") bytes of prompt"
`,
  'edit.sh': `
echo 'numpy==1.26.4' >> requirements.txt
rm old.py
echo "fixed" >&2
`,
  'env.sh': `env > env.txt`,
  'junk.sh': `
mkdir -p .git node_modules/x __pycache__ .venv/bin sub/__pycache__
echo ref > .git/HEAD; echo x > node_modules/x/index.js; echo c > __pycache__/m.pyc
echo p > .venv/bin/python; echo c > sub/__pycache__/m.pyc; echo keep > sub/m.py
printf '\\377\\376\\000' > a.out
head -c 6000000 /dev/zero | tr '\\0' 'x' > big.csv
`,
  'copy.sh': `cp logo.png copy.png`,
  'huge.sh': `i=0; while [ $i -lt 11 ]; do truncate -s 5000000 part$i.bin; i=$((i+1)); done`,
  'hang.sh': `sleep 300 & echo $! > "$PIDS.part"; mv "$PIDS.part" "$PIDS"; sleep 300`,
  'fail.sh': `echo "starting"; echo "boom: no such model" >&2; exit 1`,
  'usage.sh': `echo '{"type":"result","result":"done","total_cost_usd":0.02,"usage":{"input_tokens":5,"output_tokens":7}}'`,
  'loud.sh': `i=0; while [ $i -lt 1000 ]; do printf '%049d\\n' $i; i=$((i+1)); done; echo END`,
};

describe('CliAgent', () => {
  let scripts: string;
  let workDir: string;
  const env = { PATH: process.env.PATH, HOME: '/home/agent', ALLOWED_KEY: 'visible', HOST_SECRET: 'hidden' };

  beforeAll(() => {
    scripts = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-scripts-'));
    for (const [name, body] of Object.entries(SCRIPTS)) fs.writeFileSync(path.join(scripts, name), body);
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-work-'));
  });
  afterAll(() => {
    fs.rmSync(scripts, { recursive: true, force: true });
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  function agent(command: string, extra: Partial<CliSpec> = {}, agentEnv: NodeJS.ProcessEnv = env): CliAgent {
    return new CliAgent({ kind: 'cli', name: 'fake', command, timeout_s: 30, env: [], ...extra }, agentEnv, { workDir });
  }

  afterEach(() => {
    // every call removes its workspace
    expect(fs.readdirSync(workDir)).toEqual([]);
  });

  it('returns what the command wrote, with the prompt file given', async () => {
    const res = await agent(`sh ${scripts}/gen.sh {prompt_file}`).call(agentRequest({ prompt: 'x'.repeat(42) }));
    expect(res.files).toEqual({ 'main.py': 'import yaml\nprint("ok")\n', 'requirements.txt': 'PyYAML==6.0.1\n' });
    expect(res.transcript).toContain('read 42 bytes of prompt');
    expect(res).toMatchObject({ tokensIn: null, tokensOut: null, costUsd: null });
    expect(res.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('lets the command edit the previous files', async () => {
    const res = await agent(`sh ${scripts}/edit.sh`).call(
      agentRequest({ iteration: 1, previousFiles: { 'main.py': 'import numpy\n', 'old.py': 'x', 'requirements.txt': 'PyYAML==6.0.1\n' } }),
    );
    expect(res.files).toEqual({ 'main.py': 'import numpy\n', 'requirements.txt': 'PyYAML==6.0.1\nnumpy==1.26.4\n' });
    expect(res.transcript).toContain('fixed');
  });

  it('passes the prompt shell-quoted and the workspace path', async () => {
    const prompt = `it's "$HOME" $(echo injected) \`id\` \\ done\nline 2`;
    const res = await agent(`printf '%s' {prompt} > prompt.txt; echo {workspace} > ws.txt; cat {prompt_file} > file.txt`).call(
      agentRequest({ prompt }),
    );
    expect(res.files['prompt.txt']).toBe(prompt);
    expect(res.files['file.txt']).toBe(prompt);
    expect(res.files['ws.txt'].startsWith(path.join(workDir, 'envgap-cli-'))).toBe(true);
  });

  it('passes only PATH, HOME and the listed variables', async () => {
    const res = await agent(`sh ${scripts}/env.sh`, { env: ['ALLOWED_KEY', 'UNSET_ONE'] }).call(agentRequest());
    const vars = Object.fromEntries(res.files['env.txt'].trim().split('\n').map((l) => [l.split('=')[0], l.slice(l.indexOf('=') + 1)]));
    expect(vars).toMatchObject({ HOME: '/home/agent', ALLOWED_KEY: 'visible', PATH: process.env.PATH });
    expect(vars).not.toHaveProperty('HOST_SECRET');
    expect(vars).not.toHaveProperty('UNSET_ONE');
    // what sh itself adds (PWD, SHLVL, _) is all that may be there besides
    expect(Object.keys(vars).filter((k) => !['HOME', 'ALLOWED_KEY', 'PATH', 'PWD', 'SHLVL', '_', 'OLDPWD'].includes(k))).toEqual([]);
  });

  it('leaves out tool folders and files over 5 MiB, and says so; keeps binary files', async () => {
    const res = await agent(`sh ${scripts}/junk.sh`).call(agentRequest());
    expect(Object.keys(res.files)).toEqual(['a.out', 'sub/m.py']);
    expect(res.files['sub/m.py']).toBe('keep\n');
    expect(fileBytes(res.files['a.out']).equals(Buffer.from([0xff, 0xfe, 0]))).toBe(true);
    expect(res.transcript).toContain('left out (larger than 5 MiB, or not a regular file): big.csv');
  });

  it('writes a binary previous file as its bytes and reads the workspace back byte for byte', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const res = await agent(`sh ${scripts}/copy.sh`).call(agentRequest({ previousFiles: { 'logo.png': encodeBinary(png) } }));
    expect(fileBytes(res.files['copy.png']).equals(png)).toBe(true);
    expect(res.files['logo.png']).toBe(encodeBinary(png));
  });

  it('leaves out the files past the project size limit, naming the folder, the total and the limit', async () => {
    const res = await agent(`sh ${scripts}/huge.sh`).call(agentRequest());
    expect(Object.keys(res.files).length).toBe(10);
    expect(res.transcript).toMatch(
      new RegExp(`left out \\(the project folder ${workDir}/envgap-cli-\\w+ holds 55000000 bytes of files, over the limit of ${MAX_PROJECT_BYTES} bytes \\(50 MiB\\) per project\\): part\\d+\\.bin\\n`),
    );
  });

  it('kills the whole process group on timeout', async () => {
    const pids = path.join(scripts, 'hang-pids');
    await expect(agent(`sh ${scripts}/hang.sh`, { timeout_s: 5, env: ['PIDS'] }, { ...env, PIDS: pids }).call(agentRequest())).rejects.toThrow(/cli agent "fake" timed out after 5 s/);
    // hang.sh's background sleep outlives the script by far: only the group's kill can end it.
    const child = Number(fs.readFileSync(pids, 'utf8'));
    await waitFor(`the agent's background process ${child} to be gone`, () => !pidRunning(child), 60_000);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    await expect(agent('sleep 30').call(agentRequest(), controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('turns a non-zero exit into a retryable error with the output tail', async () => {
    const call = agent(`sh ${scripts}/fail.sh`).call(agentRequest());
    await expect(call).rejects.toThrow(/cli agent "fake" exited with code 1; output tail:\nstarting\nboom: no such model/);
    await expect(agent(`sh ${scripts}/fail.sh`).call(agentRequest())).rejects.not.toBeInstanceOf(AgentInputError);
  });

  it('records tokens and cost the agent printed', async () => {
    const res = await agent(`sh ${scripts}/usage.sh`).call(agentRequest());
    expect(res).toMatchObject({ tokensIn: 5, tokensOut: 7, costUsd: 0.02 });
  });

  it('keeps only the last 20k characters of the transcript', async () => {
    const res = await agent(`sh ${scripts}/loud.sh`).call(agentRequest());
    expect(res.transcript!.length).toBeLessThanOrEqual(20_000);
    expect(res.transcript!.endsWith('END\n')).toBe(true);
  });

  it('refuses previous files that would land outside the workspace', async () => {
    await expect(agent('true').call(agentRequest({ previousFiles: { '../x': 'y' } }))).rejects.toThrow(/unsafe project path/);
  });

  it('leaves out a file hard-linked to a host file, and says so (issue 8)', async () => {
    const host = path.join(scripts, 'host-secret.txt');
    fs.writeFileSync(host, 'HOST-SECRET\n');
    const res = await agent(`ln ${host} stolen.txt && echo keep > main.py`).call(agentRequest());
    expect(res.files).toEqual({ 'main.py': 'keep\n' });
    expect(res.transcript).toContain('left out (hard links: a file with more than one name is never read): stolen.txt');
    expect(JSON.stringify(res)).not.toContain('HOST-SECRET');
  });

  it('redacts a secret variable it was given from its errors (issue 8)', async () => {
    const secretEnv = { ...env, MY_API_KEY: 'sk-0123456789abcdef-secret' };
    const err = await agent('echo "key: $MY_API_KEY" >&2; exit 3', { env: ['MY_API_KEY'] }, secretEnv).call(agentRequest()).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/exited with code 3[\s\S]*key: \[redacted:MY_API_KEY\]/);
    expect((err as Error).message + (err as Error).stack).not.toContain('sk-0123456789abcdef-secret');
  });
});
