import { honoursRunFile, runSpecOf } from '../../../src/agents/runFile';
import { AgentOutputError, type AgentResponse } from '../../../src/agents/types';
import { RUN_FILE_NOTE } from '../../../src/catalog/prompts';
import { encodeBinary } from '../../../src/domain/files';
import { describeRunSpec, parseRunFile, parseRunSpec, RUN_SPEC_CAPS } from '../../../src/domain/runSpec';
import { callAgentWith } from '../../helpers/agentActivity';

const answer = (files: Record<string, string>, extra: Partial<AgentResponse> = {}): AgentResponse => ({ files, tokensIn: null, tokensOut: null, costUsd: null, durationMs: 1, ...extra });

describe('run specs (.replay.json "run", envgap.run.json)', () => {
  it('fill the keys left out, and say what they add', () => {
    expect(parseRunSpec({ args: ['a'] }, 'x')).toEqual({ spec: { args: ['a'], stdin: null, env: {} } });
    expect(describeRunSpec({ args: ['in.txt'], stdin: 'héllo', env: { B: '1', A: '2' } })).toBe('arguments ["in.txt"]; 6 bytes on standard input; environment A, B');
  });

  it.each([
    ['args not a list', { args: 'in.txt' }, 'field args: Invalid input: expected array, received string'],
    ['a NUL in an argument', { args: ['a\u0000b'] }, 'field args.0: must not hold a NUL character'],
    ['too many arguments', { args: Array.from({ length: RUN_SPEC_CAPS.args + 1 }, () => 'a') }, 'field args: at most 64 arguments'],
    ['stdin over its cap', { stdin: 'x'.repeat(RUN_SPEC_CAPS.stdinBytes + 1) }, 'field stdin: at most 65536 bytes'],
    ['PATH replaced', { env: { PATH: '/tmp' } }, 'field env.PATH: is set by envgap itself'],
    ['the exec mark replaced', { env: { ENVGAP_EXEC: 'x' } }, 'field env.ENVGAP_EXEC: is set by envgap itself'],
    ['a variable name with spaces', { env: { 'NOT A NAME': 'x' } }, 'field env.NOT A NAME: must be an environment variable name'],
    ['a number as a value', { env: { PORT: 8080 } }, 'field env.PORT: Invalid input: expected string, received number'],
    ['an unknown key', { argv: ['a'] }, 'field (record): Unrecognized key: "argv"'],
  ])('refuse %s, naming the file and the field', (_what, value, message) => {
    const parsed = parseRunSpec(value, 'envgap.run.json');
    expect(parsed).toHaveProperty('problem');
    expect((parsed as { problem: string }).problem).toMatch(/^envgap\.run\.json is not a valid run spec: /);
    expect((parsed as { problem: string }).problem).toContain(message);
  });

  it('refuse a run file that is not JSON, naming it', () => {
    expect(parseRunFile('{"args": [', 'envgap.run.json')).toEqual({ problem: expect.stringMatching(/^envgap\.run\.json is not JSON: /) });
  });
});

describe('runSpecOf: how an answer asks to be run', () => {
  it("reads the project's envgap.run.json where honoured, and ignores it where not", () => {
    const files = { 'main.py': 'x', 'envgap.run.json': '{"args": ["data.csv"], "env": {"PORT": "5000"}}' };
    expect(runSpecOf(answer(files), true)).toEqual({ args: ['data.csv'], stdin: null, env: { PORT: '5000' } });
    expect(runSpecOf(answer(files), false)).toBeUndefined();
    expect(runSpecOf(answer({ 'main.py': 'x' }), true)).toBeUndefined();
  });

  it("takes a recording's own run first, and treats an empty spec as none", () => {
    const run = { args: ['x'], stdin: 'y', env: {} };
    expect(runSpecOf(answer({ 'main.py': 'x' }, { run }), true)).toBe(run);
    expect(runSpecOf(answer({ 'envgap.run.json': '{}' }), true)).toBeUndefined();
  });

  it('makes an answer with an invalid run file unusable (the agent wrote it), and reads one stored as bytes', () => {
    expect(() => runSpecOf(answer({ 'envgap.run.json': '{"args": "x"}' }), true)).toThrow(AgentOutputError);
    expect(() => runSpecOf(answer({ 'envgap.run.json': encodeBinary(Buffer.from([0xff, 0xfe])) }), true)).toThrow('envgap.run.json is not UTF-8 text');
  });

  it('is honoured for recordings always, for cli and openai where run_file is true', () => {
    expect(honoursRunFile({ kind: 'replay', name: 'r', path: 'p' })).toBe(true);
    expect(honoursRunFile({ kind: 'cli', name: 'c', command: 'x', timeout_s: 1, env: [], run_file: true })).toBe(true);
    expect(honoursRunFile({ kind: 'cli', name: 'c', command: 'x', timeout_s: 1, env: [], run_file: false })).toBe(false);
    // A spec from a study started before the option existed: its prompts never mentioned the file.
    expect(honoursRunFile({ kind: 'openai', name: 'o', base_url: 'http://h', model: 'm', timeout_s: 1 })).toBe(false);
  });
});

describe('callAgent and the run file', () => {
  const fixed = (files: Record<string, string>) => {
    const prompts: string[] = [];
    const agent = { name: 'fixed', call: async (req: { prompt: string }) => (prompts.push(req.prompt), answer(files)) };
    return { prompts, agentFor: () => agent };
  };
  const cli = (run_file?: boolean) => ({ kind: 'cli' as const, name: 'c', command: 'true', timeout_s: 60, env: [], ...(run_file === undefined ? {} : { run_file }) });

  it('tells the agent of the run file after the task prompt, and hands its spec on', async () => {
    const { prompts, agentFor } = fixed({ 'main.py': 'x', 'envgap.run.json': '{"stdin": "3\\n"}' });
    const { result, store } = callAgentWith(cli(true), agentFor);
    expect(await result).toMatchObject({ kind: 'project', run: { args: [], stdin: '3\n', env: {} } });
    expect(prompts[0]).toBe(`TASK: write a program\n\n${RUN_FILE_NOTE}`);
    // The prompt as stored is the prompt as sent.
    expect(store.stored).toContain(`TASK: write a program\n\n${RUN_FILE_NOTE}`);
  });

  it('with run_file: false, sends the prompt unchanged and runs the project as if the file were any file', async () => {
    const { prompts, agentFor } = fixed({ 'main.py': 'x', 'envgap.run.json': '{"stdin": "3\\n"}' });
    const result = await callAgentWith(cli(false), agentFor).result;
    expect(prompts[0]).toBe('TASK: write a program');
    expect(result).not.toHaveProperty('run');
  });

  it('an invalid run file in every sample is an unusable answer, with the reason', async () => {
    const { agentFor } = fixed({ 'main.py': 'x', 'envgap.run.json': '{"env": {"PATH": "/x"}}' });
    const result = await callAgentWith(cli(true), agentFor).result;
    expect(result).toMatchObject({ kind: 'unusable', samples: 3, message: expect.stringContaining('env.PATH') });
  });
});
