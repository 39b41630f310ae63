import { claudeCode, claudeCodeResult } from '../../../../src/agents/presets/claudeCode';
import type { PresetCall } from '../../../../src/agents/presets/types';

/**
 * Claude Code 2.1.332 as a preset. The JSON results below are what the real CLI printed against the
 * model-API double (test/helpers/modelApi/anthropic.ts): a Gen whose two responses reported 1234 in and
 * 56 out each, a 400 "prompt is too long", and a 429 after its 10 retries.
 */

const GEN_RESULT = '{"duration_api_ms":785,"stop_reason":"end_turn","session_id":"a329b2c0-232d-4e12-b218-2601d2344baf","total_cost_usd":0.009084000000000002,"usage":{"input_tokens":2468,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":112,"output_tokens_details":{"thinking_tokens":0},"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard","cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"inference_geo":"","iterations":[],"speed":"standard","fallback_credit":null},"modelUsage":{"claude-sonnet-4-5":{"inputTokens":2468,"outputTokens":112,"cacheReadInputTokens":0,"cacheCreationInputTokens":0,"webSearchRequests":0,"costUSD":0.009084000000000002,"contextWindow":200000,"maxOutputTokens":32000,"thinkingTokens":0,"cacheCreationEphemeral5mInputTokens":0,"cacheCreationEphemeral1hInputTokens":0,"canonicalModel":"claude-sonnet-4-5","provider":"firstParty","costBasis":"list"}},"permission_denials":[],"terminal_reason":"completed","fast_mode_state":"off","fast_mode_disabled_reason":"sdk_opt_in_required","subagent_stats":{"spawned":0,"requested":{"background":0,"foreground":0,"unset":0},"started_in_background":0,"max_depth":0,"spawned_by_subagents":0,"completed":0,"failed":0,"killed":{"parent":0,"user":0,"system":0},"refused":{"depth_limit":0,"concurrency_limit":0,"budget":0},"by_type":{}},"safety_stops":0,"is_error":false,"num_turns":2,"subtype":"success","api_error_status":null,"result":"Wrote hello.py.","ttft_ms":910,"type":"result","duration_ms":1444,"uuid":"4838675b-38e5-4221-a637-f47be88c48bb","ttft_stream_ms":854,"time_to_request_ms":637,"first_content_frame_ms":856,"queued_turn_count":0,"result_index":0}';
const PROMPT_TOO_LONG = '{"duration_api_ms":0,"stop_reason":"stop_sequence","session_id":"9b54ef2b-ced4-47ca-8ad7-9c1aacd724ba","total_cost_usd":0,"usage":{"output_tokens_details":{"thinking_tokens":0},"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":0,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard","cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"inference_geo":"","iterations":[],"speed":"standard","fallback_credit":null},"modelUsage":{},"permission_denials":[],"terminal_reason":"prompt_too_long","fast_mode_state":"off","fast_mode_disabled_reason":"sdk_opt_in_required","subagent_stats":{"spawned":0,"requested":{"background":0,"foreground":0,"unset":0},"started_in_background":0,"max_depth":0,"spawned_by_subagents":0,"completed":0,"failed":0,"killed":{"parent":0,"user":0,"system":0},"refused":{"depth_limit":0,"concurrency_limit":0,"budget":0},"by_type":{}},"safety_stops":0,"is_error":true,"num_turns":1,"subtype":"success","api_error_status":400,"api_error_type":"invalid_request_error","result":"Prompt is too long \u00b7 the request is ~200001 tokens (limit 200000) but this conversation is only ~2592 tokens \u2014 the rest is system prompt, tool definitions, and attachment content. A single-exchange conversation cannot be compacted; reduce attached files/tools or start with less context.","type":"result","duration_ms":1199,"uuid":"d3725092-4d2c-4232-b779-7f2f443a5d8d","queued_turn_count":0,"result_index":0}';
const RATE_LIMITED = '{"duration_api_ms":0,"stop_reason":"stop_sequence","session_id":"c5fd7e0b-db0d-4f2d-96ea-1c6fe727ef8d","total_cost_usd":0,"usage":{"output_tokens_details":{"thinking_tokens":0},"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":0,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard","cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"inference_geo":"","iterations":[],"speed":"standard","fallback_credit":null},"modelUsage":{},"permission_denials":[],"terminal_reason":"api_error","fast_mode_state":"off","fast_mode_disabled_reason":"sdk_opt_in_required","subagent_stats":{"spawned":0,"requested":{"background":0,"foreground":0,"unset":0},"started_in_background":0,"max_depth":0,"spawned_by_subagents":0,"completed":0,"failed":0,"killed":{"parent":0,"user":0,"system":0},"refused":{"depth_limit":0,"concurrency_limit":0,"budget":0},"by_type":{}},"safety_stops":0,"is_error":true,"num_turns":1,"subtype":"success","api_error_status":429,"api_error_type":"rate_limit_error","result":"API Error: Request rejected (429) \u00b7 Number of request tokens has exceeded your per-minute rate limit (the model-API double).","type":"result","duration_ms":177217,"uuid":"369a2a57-fc6e-45ae-8a68-6da1b7fb2096","queued_turn_count":0,"result_index":0}';

const CALL: PresetCall = {
  model: 'claude-sonnet-4-5',
  baseUrl: 'http://127.0.0.1:8123',
  apiKeyEnv: 'ANTHROPIC_API_KEY',
  promptFile: '/run/envgap/prompt.md',
  workspace: '/workspace',
  home: '/root',
  resume: false,
};

describe('the claude-code preset', () => {
  it('installs @anthropic-ai/claude-code and names its defaults', () => {
    expect(claudeCode).toMatchObject({
      kind: 'claude-code',
      title: 'Claude Code',
      install: { registry: 'npm', package: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' },
      vendor: { model: 'claude-sonnet-4-5', apiKeyEnv: 'ANTHROPIC_API_KEY', baseUrl: 'https://api.anthropic.com' },
      costSource: "Claude Code's own list-price estimate",
      sessionPaths: ['.claude/projects'],
    });
    expect(claudeCode.homeFiles(CALL)).toEqual({});
  });

  it('runs headless with every tool allowed, the prompt on stdin and a JSON result', () => {
    expect(claudeCode.command(CALL)).toBe("claude -p --output-format json --dangerously-skip-permissions --model 'claude-sonnet-4-5' < '/run/envgap/prompt.md'");
  });

  it("hands a study's own key variable over as ANTHROPIC_API_KEY and quotes what it puts on the line", () => {
    const command = claudeCode.command({ ...CALL, apiKeyEnv: 'MY_KEY', model: "it's", promptFile: '/run/a b.md' });
    expect(command).toBe(`ANTHROPIC_API_KEY="$MY_KEY" claude -p --output-format json --dangerously-skip-permissions --model 'it'\\''s' < '/run/a b.md'`);
    expect(() => claudeCode.command({ ...CALL, apiKeyEnv: 'X; rm -rf /' })).toThrow(/not a variable name/);
  });

  it('continues the newest session of the workspace, its cost so far dropped so the result tells this call\'s cost', () => {
    const command = claudeCode.command({ ...CALL, resume: true });
    expect(command).toContain(' claude -p --continue --output-format json ');
    expect(command.indexOf('cost-state')).toBeLessThan(command.indexOf('claude -p'));
    expect(command.startsWith(`find "$HOME/.claude/projects" -name '*.jsonl' -exec sed -i '/^{"type":"cost-state"/d' {} + 2>/dev/null; `)).toBe(true);
  });

  it('points it at the relay, runs it as root in the sandbox, keeps every call on the study\'s model and turns off all other traffic', () => {
    const env = claudeCode.env({ ...CALL, model: 'claude-opus-4-1' });
    expect(env).toMatchObject({
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:8123',
      IS_SANDBOX: '1',
      ANTHROPIC_SMALL_FAST_MODEL: 'claude-opus-4-1',
      ANTHROPIC_DEFAULT_HAIKU_MODEL: 'claude-opus-4-1',
      CLAUDE_CODE_SUBAGENT_MODEL: 'claude-opus-4-1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
    });
    // The key goes by its own variable, never into env().
    expect(Object.keys(env)).not.toContain('ANTHROPIC_API_KEY');
  });

  it('reads the tokens and list-price cost of its JSON result', () => {
    // Two responses of 1234 in and 56 out; $3 and $15 a million tokens.
    expect(claudeCode.usage(GEN_RESULT)).toEqual({ tokensIn: 2468, tokensOut: 112, costUsd: 0.009084000000000002 });
    expect(claudeCode.usage(`${GEN_RESULT}\n`)).toEqual(claudeCode.usage(GEN_RESULT));
  });

  it('leaves out the cost it makes up for a model it has no price of', () => {
    const result = JSON.parse(GEN_RESULT);
    result.modelUsage = { 'my-gateway-model': { ...result.modelUsage['claude-sonnet-4-5'], costUSD: 0.01, costBasis: 'unknown' } };
    result.total_cost_usd = 0.01;
    expect(claudeCode.usage(JSON.stringify(result))).toEqual({ tokensIn: 2468, tokensOut: 112, costUsd: null });
  });

  it('counts cache reads and writes as input', () => {
    const result = JSON.parse(GEN_RESULT);
    result.usage = { ...result.usage, input_tokens: 10, cache_creation_input_tokens: 1000, cache_read_input_tokens: 5000 };
    expect(claudeCode.usage(JSON.stringify(result))).toMatchObject({ tokensIn: 6010, tokensOut: 112 });
  });

  it('reports no usage where it printed no result', () => {
    const none = { tokensIn: null, tokensOut: null, costUsd: null };
    expect(claudeCode.usage('')).toEqual(none);
    expect(claudeCode.usage('--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons\n')).toEqual(none);
    expect(claudeCode.usage('{"usage":{"input_tokens":1,"output_tokens":2}}')).toEqual(none);
    // An API error: a result of zeros (what it did use is what it reports).
    expect(claudeCode.usage(RATE_LIMITED)).toEqual({ tokensIn: 0, tokensOut: 0, costUsd: 0 });
  });

  it("reads its final message, the result's `result`, as it is", () => {
    expect(claudeCode.finalText!(GEN_RESULT)).toBe('Wrote hello.py.');
    expect(claudeCode.finalText!(`noise\n${GEN_RESULT}\n`)).toBe('Wrote hello.py.');
    const result = JSON.parse(GEN_RESULT);
    const answer = '  Done.\n\n```json\n{"ready": true}\n```\n';
    expect(claudeCode.finalText!(JSON.stringify({ ...result, result: answer }))).toBe(answer);
  });

  it('gives no final message where it printed no result or an error result', () => {
    // An error result's text is Claude Code's ("Prompt is too long ...", "API Error: ..."), not the model's.
    expect(claudeCode.finalText!(PROMPT_TOO_LONG)).toBeNull();
    expect(claudeCode.finalText!(RATE_LIMITED)).toBeNull();
    expect(claudeCode.finalText!('')).toBeNull();
    expect(claudeCode.finalText!('--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons\n')).toBeNull();
  });

  it('finds the result object', () => {
    expect(claudeCodeResult(GEN_RESULT)).toMatchObject({ type: 'result', subtype: 'success', is_error: false, result: 'Wrote hello.py.' });
    expect(claudeCodeResult(`noise\n${PROMPT_TOO_LONG}\n`)).toMatchObject({ terminal_reason: 'prompt_too_long' });
    expect(claudeCodeResult('not json')).toBeNull();
  });

  it('tells a context overflow from its result, other failures by their exit status alone', () => {
    expect(claudeCode.reportedFailure!(PROMPT_TOO_LONG)).toBe('AgentContext');
    expect(claudeCode.reportedFailure!(GEN_RESULT)).toBeNull();
    expect(claudeCode.reportedFailure!(RATE_LIMITED)).toBeNull();
    // Its message alone (no JSON result: killed, or another output format).
    expect(claudeCode.reportedFailure!('Prompt is too long\n')).toBe('AgentContext');
    expect(claudeCode.reportedFailure!('API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}')).toBe('AgentContext');
    // A successful result that talks about context windows is no failure.
    const talk = JSON.parse(GEN_RESULT);
    talk.result = 'I kept the prompt is too long warning in mind and the context window small.';
    expect(claudeCode.reportedFailure!(JSON.stringify(talk))).toBeNull();
  });

  it('tells a refusal and a turn or budget limit', () => {
    const result = JSON.parse(GEN_RESULT);
    expect(claudeCode.reportedFailure!(JSON.stringify({ ...result, stop_reason: 'refusal' }))).toBe('AgentRefused');
    expect(claudeCode.reportedFailure!(JSON.stringify({ ...result, subtype: 'error_max_turns', is_error: true }))).toBe('AgentBudget');
    expect(claudeCode.reportedFailure!(JSON.stringify({ ...result, subtype: 'error_max_budget_usd', is_error: true }))).toBe('AgentBudget');
  });
});
