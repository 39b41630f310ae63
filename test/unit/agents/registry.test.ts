import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CliAgent } from '../../../src/agents/cli';
import { cliCommand, cliEnv, runCliInContainer, type ContainerExec } from '../../../src/agents/cliRun';
import { OpenAIAgent } from '../../../src/agents/openai';
import { AGENT_KINDS, createAgent, kindOf, kindsServing, PROTOCOLS, refusal, type ReadmeRequest } from '../../../src/agents/registry';
import { ReplayAgent } from '../../../src/agents/replay';
import { StaticAgent } from '../../../src/agents/static';
import { AgentInputError } from '../../../src/agents/types';
import { parseAgentSpec, PRESET_KINDS, type CliSpec } from '../../../src/domain/agentSpec';
import { isPresetKind } from '../../../src/domain/presetKinds';
import type { GoldAnswer } from '../../../src/domain/readme';
import { writeEncondaPrediction } from '../../../src/readme/enconda';

const cliSpec = (extra: Partial<CliSpec> = {}): CliSpec => ({ kind: 'cli', name: 'fake', command: 'true', timeout_s: 30, env: [], ...extra });

describe('the agent registry', () => {
  it('says which protocols each kind serves', () => {
    const served = Object.fromEntries(Object.values(AGENT_KINDS).map((k) => [k.kind, PROTOCOLS.filter((p) => k.protocols[p] !== null)]));
    expect(served).toEqual({
      replay: ['gap', 'readme', 'readiness'],
      cli: ['gap', 'readme', 'readiness'],
      openai: ['gap', 'readme', 'readiness'],
      static: ['gap'],
      oracle: ['readme'],
      ...Object.fromEntries(PRESET_KINDS.map((k) => [k, ['gap', 'readme', 'readiness']])),
    });
    for (const [kind, module] of Object.entries(AGENT_KINDS)) expect(module.kind).toBe(kind);
  });

  it('names the activity the README workflow calls, and the readiness session, of each kind', () => {
    expect(kindsServing('readme').map((k) => [k.kind, k.protocols.readme!.activity, k.protocols.readme!.setupScript])).toEqual([
      ['replay', 'replayAnswer', true],
      ['cli', 'cliAnswer', true],
      ['openai', 'openaiAnswer', true],
      ['oracle', 'oracleAnswer', false],
      ...PRESET_KINDS.map((k) => [k, 'cliAnswer', true]),
    ]);
    expect(kindsServing('readiness').map((k) => [k.kind, k.protocols.readiness!.session])).toEqual([
      ['replay', 'recorded-steps'],
      ['cli', 'one-command'],
      ['openai', 'tool-loop'],
      ...PRESET_KINDS.map((k) => [k, 'one-command']),
    ]);
  });

  it('agrees with the workflows, which pick the activities by kind (their names are in committed histories)', () => {
    const source = (f: string) => fs.readFileSync(path.join(__dirname, '../../../src/workflows', f), 'utf8');
    const readme = source('readme.ts');
    for (const k of kindsServing('readme')) {
      const activity = k.protocols.readme!.activity;
      // cliAnswer is where the workflow sends a cli agent on the worker; every other kind it does not name (the presets) answers in the repository's container.
      if (activity === 'cliAnswer') expect(readme).toMatch(/agent\.kind !== 'cli' \|\| agent\.in_container\) return sessionAnswer\(/);
      // The kind's branch returns its activity at once, or (openai: its tool loop first, when asked for) at the end of its block.
      else expect(readme).toMatch(new RegExp(`agent\\.kind === '${k.kind}'\\) (\\{[^}]*)?return (a\\.)?${activity}\\(`));
    }
    const readiness = source('readiness.ts');
    const sessions = { 'one-command': 'runCliSession', 'tool-loop': 'runToolLoop' } as const;
    for (const k of kindsServing('readiness')) {
      const session = k.protocols.readiness!.session;
      if (session === 'recorded-steps') expect(readiness).toContain('loadReplaySession(');
      else if (isPresetKind(k.kind)) expect(readiness).toMatch(/agent\.kind === 'cli' \|\| isPreset\(input\.agent\)\) return runCliSession\(/);
      else expect(readiness).toMatch(new RegExp(`agent\\.kind === '${k.kind}'( \\|\\| isPreset\\(input\\.agent\\))?\\) return ${sessions[session]}\\(`));
    }
  });

  it('builds the Gen/Repair adapter of each kind that has one', () => {
    const specs = [
      parseAgentSpec({ kind: 'replay', name: 'rec', path: '/corpus' }),
      parseAgentSpec({ kind: 'cli', name: 'claude', command: 'claude -p "$(cat {prompt_file})"' }),
      parseAgentSpec({ kind: 'openai', name: 'local', base_url: 'http://127.0.0.1:8000/v1', model: 'm' }),
      parseAgentSpec({ kind: 'static', name: 'scan', path: '/corpus' }),
    ];
    const agents = specs.map((s) => createAgent(s, {}));
    expect(agents.map((a) => a.constructor)).toEqual([ReplayAgent, CliAgent, OpenAIAgent, StaticAgent]);
    expect(agents.map((a) => a.name)).toEqual(['rec', 'claude', 'local', 'scan']);
  });

  it('says why a protocol cannot take a kind, and which kinds it takes', () => {
    expect(refusal('static', 'readiness')).toBe('a static agent cannot take part in a readiness study: it serves the environment gap protocol only; a readiness study takes replay, cli, openai, claude-code, codex, gemini-cli, qwen-code or opencode agents');
    expect(refusal('static', 'readme')).toBe('a static agent cannot take part in a README study: it serves the environment gap protocol only; a README study takes replay, cli, openai, oracle, claude-code, codex, gemini-cli, qwen-code or opencode agents');
    expect(refusal('oracle', 'gap')).toBe('an oracle agent cannot take part in an environment gap study: it serves the README protocol only; an environment gap study takes replay, cli, openai, static, claude-code, codex, gemini-cli, qwen-code or opencode agents');
    expect(refusal('magic', 'gap')).toBe('unknown agent kind "magic"; an environment gap study takes replay, cli, openai, static, claude-code, codex, gemini-cli, qwen-code or opencode agents');
    expect(refusal('toString', 'gap')).toMatch(/^unknown agent kind "toString"/);
    for (const p of PROTOCOLS) for (const k of kindsServing(p)) expect(refusal(k.kind, p)).toBeNull();
  });
});

describe('the cli template, environment and output, once for every protocol', () => {
  it('fills the placeholders: paths as they are, the prompt as one shell word', () => {
    const spec = cliSpec({ command: 'agent --file {prompt_file} --in {workspace} -p {prompt}' });
    expect(cliCommand(spec, { promptFile: '/w/p.md', workspace: '/w', prompt: "it's" })).toBe(`agent --file /w/p.md --in /w -p 'it'\\''s'`);
  });

  it('gives the variables the spec names, with PATH and HOME on the host only; an unset one is skipped or refused', () => {
    const host = { PATH: '/bin', HOME: '/home/a', KEY: 'k', BASE_URL: 'http://proxy', OTHER: 'hidden' };
    const spec = cliSpec({ env: ['KEY', 'BASE_URL'] });
    expect(cliEnv(spec, host, 'host', 'refuse')).toEqual({ PATH: '/bin', HOME: '/home/a', KEY: 'k', BASE_URL: 'http://proxy' });
    expect(cliEnv(spec, host, 'container', 'refuse')).toEqual({ KEY: 'k', BASE_URL: 'http://proxy' });
    const unset = cliSpec({ env: ['KEY', 'UNSET_ONE'] });
    expect(cliEnv(unset, host, 'host', 'skip')).toEqual({ PATH: '/bin', HOME: '/home/a', KEY: 'k' });
    expect(() => cliEnv(unset, host, 'container', 'refuse')).toThrow(new AgentInputError('cli agent "fake": UNSET_ONE not set in the worker\'s environment'));
  });

  it('runs in a container through the sandbox given, its output redacted and its usage read (readiness, README agent mode)', async () => {
    const host = { MY_API_KEY: 'sk-0123456789abcdef-secret', PATH: '/host/bin' };
    const calls: [string, string[]][] = [];
    const exec: ContainerExec = async (command, env) => {
      calls.push([command, env]);
      return { output: `key ${host.MY_API_KEY}\n{"usage":{"input_tokens":10,"output_tokens":5},"total_cost_usd":0.5}\n`, exitCode: 0, timedOut: false, durationMs: 7 };
    };
    const spec = cliSpec({ command: 'claude -p < {prompt_file} # {workspace}', env: ['MY_API_KEY'] });
    const r = await kindOf(spec).protocols.readiness!.command!(spec, host, { promptFile: '/opt/envgap/prompt.md', workspace: '/repo', prompt: 'p' }, exec);
    expect(calls).toEqual([['claude -p < /opt/envgap/prompt.md # /repo', ['MY_API_KEY=sk-0123456789abcdef-secret']]]);
    expect(r).toMatchObject({ exitCode: 0, timedOut: false, durationMs: 7, usage: { tokensIn: 10, tokensOut: 5, costUsd: 0.5 } });
    expect(r.output).toContain('key [redacted:MY_API_KEY]');
    await expect(runCliInContainer(cliSpec({ env: ['NOT_SET'] }), {}, { promptFile: '/p', workspace: '/repo', prompt: '' }, exec)).rejects.toThrow(AgentInputError);
    expect(calls).toHaveLength(1);
  });
});

describe('README answers of each kind', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-registry-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const gold = { errors: [{ error_type: 'E1', error_description: 'wrong package', golden_answer: 'pip install inflect' }] } as GoldAnswer;
  const request = (extra: Partial<ReadmeRequest> = {}): ReadmeRequest => ({
    prompt: async () => 'the README prompt',
    gold: async () => gold,
    instance: null,
    timeoutS: 60,
    env: { PATH: process.env.PATH, HOME: os.homedir() },
    ...extra,
  });

  it('oracle: the gold errors with their golden answers as fixes, no script', async () => {
    const reply = await AGENT_KINDS.oracle.protocols.readme!.answer({ kind: 'oracle', name: 'o' }, request());
    expect(reply).toMatchObject({ kind: 'answer', answer: { detected_errors: [{ error_type: 'E1', error_description: 'wrong package', fix_suggestion: 'pip install inflect' }], setup_script: null }, spent: { durationMs: 0 } });
  });

  it('replay: the recorded answer, none recorded being the agent\'s failure, no recording an input error', async () => {
    const recorded = path.join(dir, 'recorded');
    const instance = { name: 'jaraco_inflect_error_readme_1', repoFolder: 'error_gen_jaraco_inflect', repository: null, source: null };
    writeEncondaPrediction(recorded, { name: instance.name, repoFolder: instance.repoFolder, repo: 'jaraco_inflect' }, { detected_errors: [], setup_script: 'pip install .\n' });
    const answer = AGENT_KINDS.replay.protocols.readme!.answer;
    const spec = { kind: 'replay' as const, name: 'r', path: recorded };
    expect(await answer(spec, request({ instance }))).toMatchObject({ kind: 'answer', answer: { setup_script: 'pip install .\n' } });
    expect(await answer(spec, request({ instance: { ...instance, name: 'other' } }))).toMatchObject({ kind: 'none', status: 'failed', problem: `no recorded answer for other in ${recorded}` });
    await expect(answer({ ...spec, path: path.join(dir, 'nothing') }, request({ instance }))).rejects.toThrow(AgentInputError);
  });

  it('cli: answer.md where the agent wrote one, else its standard output; a timeout or an exit is no answer', async () => {
    const answer = AGENT_KINDS.cli.protocols.readme!.answer;
    const file = await answer(cliSpec({ command: 'test -f {prompt_file} && echo "$(cat {prompt_file}) answered" > answer.md; echo ignored' }), request());
    expect(file).toMatchObject({ kind: 'text', text: 'the README prompt answered\n' });
    const stdout = await answer(cliSpec({ command: 'echo \'{"usage":{"input_tokens":3,"output_tokens":2}}\'' }), request());
    expect(stdout).toMatchObject({ kind: 'text', spent: { tokensIn: 3, tokensOut: 2 } });
    expect(await answer(cliSpec({ command: 'echo no; exit 4' }), request())).toMatchObject({ kind: 'none', status: 'failed', problem: "the agent's command exited 4", log: 'no\n' });
    expect(await answer(cliSpec({ command: 'sleep 5', timeout_s: 30 }), request({ timeoutS: 0.2 }))).toMatchObject({ kind: 'none', status: 'timeout' });
    await expect(answer(cliSpec({ env: ['NOT_SET_ANYWHERE'] }), request())).rejects.toThrow(/NOT_SET_ANYWHERE not set in the worker's environment/);
  });
});
