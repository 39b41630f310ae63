import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { codex, codexConfig, RESUMED_USAGE_EVENT } from '../../../../src/agents/presets/codex';
import type { PresetCall } from '../../../../src/agents/presets/types';

/**
 * Codex CLI 0.171.0 as a preset. The JSONL below is what the real CLI printed against the model-API
 * double (test/helpers/modelApi/openaiResponses.ts): a Gen whose two responses reported 1234 in and 56
 * out each, its Repair (`exec resume`) with two more such responses, a context overflow (a 400
 * context_length_exceeded) and a 401 after its 5 retries.
 */

const GEN = [
  '{"type":"thread.started","thread_id":"01a2376b-5f3e-76d2-9965-a1bcd7d8090e"}',
  '{"type":"turn.started"}',
  '{"type":"item.started","item":{"id":"item_0","type":"command_execution","command":"/bin/bash -lc \\"printf \\\\\\"print(\\\\\\\\\\\\\\"hello\\\\\\\\\\\\\\")\\\\\\\\n\\\\\\" > hello.py\\"","aggregated_output":"","exit_code":null,"status":"in_progress"}}',
  '{"type":"item.completed","item":{"id":"item_0","type":"command_execution","command":"/bin/bash -lc \\"printf \\\\\\"print(\\\\\\\\\\\\\\"hello\\\\\\\\\\\\\\")\\\\\\\\n\\\\\\" > hello.py\\"","aggregated_output":"","exit_code":0,"status":"completed"}}',
  '{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"Wrote hello.py."}}',
  '{"type":"turn.completed","usage":{"input_tokens":2468,"cached_input_tokens":0,"cache_write_input_tokens":0,"output_tokens":112,"reasoning_output_tokens":0}}',
  '',
].join('\n');

/**
 * The Repair: first the session's last token_count as the command found it in the rollout file, then
 * turn.completed with the session's running total, the Gen's tokens included.
 */
const RESUMED =
  '{"type":"envgap.resumed_usage","event":{"timestamp":"2026-12-02T15:51:47.038Z","ordinal":17,"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":2468,"cached_input_tokens":0,"cache_write_input_tokens":0,"output_tokens":112,"reasoning_output_tokens":0,"total_tokens":2580},"last_token_usage":{"input_tokens":1234,"cached_input_tokens":0,"cache_write_input_tokens":0,"output_tokens":56,"reasoning_output_tokens":0,"total_tokens":1290},"last_usage_includes_reasoning":false,"model_context_window":258400},"rate_limits":{"limit_id":"codex","limit_name":null,"primary":null,"secondary":null,"credits":null,"individual_limit":null,"spend_control_reached":null,"plan_type":null,"rate_limit_reached_type":null}}}}';
const REPAIR = [
  RESUMED,
  '{"type":"thread.started","thread_id":"01a2376b-5f3e-76d2-9965-a1bcd7d8090e"}',
  '{"type":"turn.started"}',
  '{"type":"item.completed","item":{"id":"item_0","type":"command_execution","command":"/bin/bash -lc \'printf fixed > hello.py\'","aggregated_output":"","exit_code":0,"status":"completed"}}',
  '{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"Repaired hello.py."}}',
  '{"type":"turn.completed","usage":{"input_tokens":4936,"cached_input_tokens":0,"cache_write_input_tokens":0,"output_tokens":224,"reasoning_output_tokens":0}}',
  '',
].join('\n');

const CONTEXT_OVERFLOW = [
  '{"type":"thread.started","thread_id":"01a23767-fc2f-7292-9b89-22bd1f4c28f3"}',
  '{"type":"turn.started"}',
  `{"type":"error","message":"Codex ran out of room in the model's context window. Start a new thread or clear earlier history before retrying."}`,
  `{"type":"turn.failed","error":{"message":"Codex ran out of room in the model's context window. Start a new thread or clear earlier history before retrying."}}`,
  '',
].join('\n');

const UNAUTHORIZED = [
  '{"type":"thread.started","thread_id":"01a2375d-9035-7da3-99e5-6579af2de402"}',
  '{"type":"turn.started"}',
  '{"type":"error","message":"Reconnecting... 1/5 (unexpected status 401 Unauthorized: Incorrect API key provided: sk-doub***., url: http://127.0.0.1:42453/v1/responses, request id: req_double_error)"}',
  '{"type":"error","message":"unexpected status 401 Unauthorized: Incorrect API key provided: sk-doub***., url: http://127.0.0.1:42453/v1/responses, request id: req_double_error"}',
  '{"type":"turn.failed","error":{"message":"unexpected status 401 Unauthorized: Incorrect API key provided: sk-doub***., url: http://127.0.0.1:42453/v1/responses, request id: req_double_error"}}',
  '',
].join('\n');

/** token_count events as Codex records them in a session's rollout file (~/.codex/sessions/...). */
function tokenCount(input: number, output: number): string {
  const usage = { input_tokens: input, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: output, reasoning_output_tokens: 0, total_tokens: input + output };
  return JSON.stringify({
    timestamp: '2026-12-02T15:41:53.787Z',
    ordinal: 13,
    type: 'event_msg',
    payload: { type: 'token_count', info: { total_token_usage: usage, last_token_usage: { ...usage }, last_usage_includes_reasoning: false, model_context_window: 258400 }, rate_limits: { limit_id: 'codex' } },
  });
}

const CALL: PresetCall = {
  model: 'gpt-5.5',
  baseUrl: 'http://127.0.0.1:8123/v1',
  apiKeyEnv: 'OPENAI_API_KEY',
  promptFile: '/run/envgap/prompt.md',
  workspace: '/workspace',
  home: '/root',
  resume: false,
};

describe('the codex preset', () => {
  it('installs @openai/codex and names its defaults', () => {
    expect(codex).toMatchObject({
      kind: 'codex',
      title: 'Codex CLI',
      install: { registry: 'npm', package: '@openai/codex', version: '0.171.0', bin: 'codex' },
      vendor: { model: 'gpt-5.5', apiKeyEnv: 'OPENAI_API_KEY', baseUrl: 'https://api.openai.com/v1' },
      costSource: null,
      sessionPaths: ['.codex/sessions'],
    });
  });

  it('runs exec with JSON events, no sandbox or approvals, outside git, the prompt on stdin', () => {
    expect(codex.command(CALL)).toBe(
      'codex exec --json --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox -m gpt-5.5 - < /run/envgap/prompt.md',
    );
  });

  it('quotes what it puts on the line', () => {
    expect(codex.command({ ...CALL, model: "it's", promptFile: '/run/a b.md' })).toBe(
      `codex exec --json --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox -m 'it'\\''s' - < '/run/a b.md'`,
    );
  });

  it("resumes the newest session wherever it ran, first printing the session's tokens so far", () => {
    const command = codex.command({ ...CALL, resume: true });
    expect(command.endsWith('; codex exec resume --last --all --json --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox -m gpt-5.5 - < /run/envgap/prompt.md')).toBe(true);
    expect(command.startsWith(`f=$(find "$HOME/.codex/sessions" -name 'rollout-*.jsonl' 2>/dev/null | sort | tail -n 1); `)).toBe(true);
    // Nothing but the settings under HOME, a resume or not.
    expect(Object.keys(codex.homeFiles({ ...CALL, resume: true }))).toEqual(['.codex/config.toml']);
  });

  it('sets no variable of its own but NO_COLOR, the key aside', () => {
    expect(codex.env(CALL)).toEqual({ NO_COLOR: '1' });
  });

  it('points a provider entry of its own at the relay, reading the key from the study\'s variable', () => {
    const toml = codex.homeFiles({ ...CALL, apiKeyEnv: 'MY_KEY', baseUrl: 'http://127.0.0.1:9/openai/v1' })['.codex/config.toml'];
    expect(toml).toContain('model = "gpt-5.5"\nmodel_provider = "envgap"\n');
    expect(toml).toContain('[model_providers.envgap]\nname = "envgap relay"\nbase_url = "http://127.0.0.1:9/openai/v1"\nenv_key = "MY_KEY"\nwire_api = "responses"\n');
    // Root keys before the first table, as TOML wants.
    expect(toml.indexOf('model_provider =')).toBeLessThan(toml.indexOf('['));
    expect(() => codexConfig({ ...CALL, apiKeyEnv: 'X; rm -rf /' })).toThrow(/not a variable name/);
    expect(codexConfig({ ...CALL, model: 'a"b' })).toContain('model = "a\\"b"');
  });

  it('never asks, never sandboxes and sends nothing but model calls', () => {
    const toml = codexConfig(CALL);
    for (const line of [
      'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"',
      'check_for_update_on_startup = false',
      '[analytics]\nenabled = false',
      '[feedback]\nenabled = false',
      'plugins = false',
      'remote_plugin = false',
      'apps = false',
      'unbounded_connection_retries = false',
      '[otel]\nexporter = "none"\ntrace_exporter = "none"\nmetrics_exporter = "none"',
    ]) {
      expect(toml).toContain(line);
    }
  });

  it('reads real JSONL (every captured line is one JSON event)', () => {
    for (const output of [GEN, REPAIR, CONTEXT_OVERFLOW, UNAUTHORIZED]) {
      for (const line of output.split('\n').filter(Boolean)) expect(typeof JSON.parse(line).type).toBe('string');
    }
  });

  it('reads the tokens of a Gen from turn.completed', () => {
    // Two responses of 1234 in and 56 out.
    expect(codex.usage(GEN)).toEqual({ tokensIn: 2468, tokensOut: 112, costUsd: null });
  });

  it("counts a Repair's own tokens, less the session's earlier ones", () => {
    expect(codex.usage(REPAIR)).toEqual({ tokensIn: 2468, tokensOut: 112, costUsd: null });
    // No total before (no session, or its first call failed before a response): all of it is this call's.
    expect(codex.usage(REPAIR.replace(`${RESUMED}\n`, ''))).toEqual({ tokensIn: 4936, tokensOut: 224, costUsd: null });
    expect(codex.usage(REPAIR.replace(RESUMED, '{"type":"envgap.resumed_usage","event":{"payload":{"type":"token_count","info":null}}}'))).toMatchObject({ tokensIn: 4936 });
  });

  it('takes the last turn.completed, a running total, and reports none where no turn completed', () => {
    const twice = GEN + GEN.replace('"input_tokens":2468', '"input_tokens":3000').replace('"output_tokens":112', '"output_tokens":150');
    expect(codex.usage(twice)).toMatchObject({ tokensIn: 3000, tokensOut: 150 });
    const none = { tokensIn: null, tokensOut: null, costUsd: null };
    expect(codex.usage('')).toEqual(none);
    expect(codex.usage(UNAUTHORIZED)).toEqual(none);
    expect(codex.usage(CONTEXT_OVERFLOW)).toEqual(none);
    expect(codex.usage('Error loading config.toml: ...\n{"usage":{"input_tokens":1}}\n')).toEqual(none);
  });

  it('finds its final message', () => {
    expect(codex.finalText!(GEN)).toBe('Wrote hello.py.');
    expect(codex.finalText!(REPAIR)).toBe('Repaired hello.py.');
    expect(codex.finalText!(UNAUTHORIZED)).toBeNull();
    expect(codex.finalText!('')).toBeNull();
  });

  it('tells a context overflow from its error events, other failures by their exit status alone', () => {
    expect(codex.reportedFailure!(CONTEXT_OVERFLOW)).toBe('AgentContext');
    expect(codex.reportedFailure!(UNAUTHORIZED)).toBeNull();
    expect(codex.reportedFailure!(GEN)).toBeNull();
    // The agent talking about context windows is no failure.
    const talk = GEN.replace('Wrote hello.py.', "Codex ran out of room in the model's context window? No.");
    expect(codex.reportedFailure!(talk)).toBeNull();
  });
});

describe("the codex preset's look at the resumed session's tokens", () => {
  let home: string;
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-home-'));
  });
  afterEach(() => {
    fs.rmSync(home, { recursive: true, force: true });
  });

  /** What the resume command prints before it runs codex (run by sh, as in the sandbox). */
  function run(): string {
    const before = codex.command({ ...CALL, home, resume: true }).split('; codex exec resume')[0];
    return execFileSync('sh', ['-c', before], { env: { HOME: home, PATH: process.env.PATH }, encoding: 'utf8' });
  }

  function rollout(day: string, name: string, lines: string[]): void {
    const dir = path.join(home, '.codex/sessions', day);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, name), lines.join('\n') + '\n');
  }

  it("prints the newest session's last total, which usage() takes off", () => {
    rollout('2026/12/01', 'rollout-2026-12-01T09-00-00-aaaa.jsonl', [tokenCount(99, 9)]);
    rollout('2026/12/02', 'rollout-2026-12-02T15-41-53-01a2376b.jsonl', [
      '{"type":"session_meta","payload":{"id":"01a2376b"}}',
      tokenCount(1234, 56),
      '{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"{\\"type\\":\\"token_count\\",\\"info\\":{}}"}]}}',
      tokenCount(2468, 112),
      '{"type":"event_msg","payload":{"type":"token_count","info":null}}',
      '{"type":"event_msg","payload":{"type":"task_complete"}}',
    ]);
    const printed = run();
    expect(printed.split('\n')).toHaveLength(2);
    const line = JSON.parse(printed);
    expect(line.type).toBe(RESUMED_USAGE_EVENT);
    expect(line.event).toEqual(JSON.parse(tokenCount(2468, 112)));
    const repair = printed + GEN.replace('"input_tokens":2468', '"input_tokens":3000').replace('"output_tokens":112', '"output_tokens":150');
    expect(codex.usage(repair)).toEqual({ tokensIn: 532, tokensOut: 38, costUsd: null });
  });

  it('prints nothing where there is no session or no total', () => {
    expect(run()).toBe('');
    rollout('2026/12/02', 'rollout-2026-12-02T15-41-53-x.jsonl', ['{"type":"session_meta"}', '{"type":"event_msg","payload":{"type":"token_count","info":null}}']);
    expect(run()).toBe('');
  });
});
