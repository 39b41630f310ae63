import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { qwenCode } from '../../../../src/agents/presets/qwenCode';
import type { PresetCall } from '../../../../src/agents/presets/types';

/**
 * Qwen Code 0.24.4 as a preset. The JSON below is what the real CLI printed (--output-format json)
 * against the model-API double (test/helpers/modelApi/openaiChat.ts), the init message's long lists
 * cut short: a Gen whose two responses reported 1234 in and 56 out each; its Repair (--continue) with
 * two responses of 2000 and 20, whose closing `result` counts the whole session (6468 and 152, the
 * Gen's tokens included); a Gen whose responses each had 200 cached prompt tokens; and a 401.
 */

const GEN = "[{\"type\":\"system\",\"subtype\":\"init\",\"uuid\":\"bd2c873d-07f2-4716-a3f8-d51c2d696d1c\",\"session_id\":\"bd2c873d-07f2-4716-a3f8-d51c2d696d1c\",\"cwd\":\"/tmp/oc-probe/seq-qwenCode/ws\",\"tools\":[\"web_fetch\",\"get_goal\",\"update_goal\",\"run_shell_command\"],\"mcp_servers\":[],\"model\":\"qwen3-coder-plus\",\"permission_mode\":\"yolo\",\"slash_commands\":[\"auth\",\"batch\"],\"qwen_code_version\":\"0.24.4\",\"agents\":[\"general-purpose\"]},{\"type\":\"assistant\",\"uuid\":\"64c72ee7-994f-4b3c-be1a-45b6139205c2\",\"session_id\":\"bd2c873d-07f2-4716-a3f8-d51c2d696d1c\",\"parent_tool_use_id\":null,\"message\":{\"id\":\"64c72ee7-994f-4b3c-be1a-45b6139205c2\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"qwen3-coder-plus\",\"content\":[{\"type\":\"tool_use\",\"id\":\"call_1\",\"name\":\"run_shell_command\",\"input\":{\"command\":\"printf 'print(\\\"hello\\\")\\\\n' > hello.py\"}}],\"stop_reason\":\"tool_use\",\"usage\":{\"input_tokens\":1234,\"output_tokens\":56,\"cache_read_input_tokens\":0,\"total_tokens\":1290}}},{\"type\":\"user\",\"uuid\":\"f9446316-292a-4aa5-a01b-de41a1cd1fda\",\"session_id\":\"bd2c873d-07f2-4716-a3f8-d51c2d696d1c\",\"parent_tool_use_id\":null,\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"call_1\",\"is_error\":false,\"content\":\"Command: printf 'print(\\\"hello\\\")\\\\n' > hello.py\\nDirectory: (root)\\nOutput: (empty)\\nError: (none)\\nExit Code: 0\\nSignal: (none)\\nProcess Group PGID: 8472\"}]}},{\"type\":\"assistant\",\"uuid\":\"935c68ba-7f0a-4e3b-8bcc-0fd1454ef940\",\"session_id\":\"bd2c873d-07f2-4716-a3f8-d51c2d696d1c\",\"parent_tool_use_id\":null,\"message\":{\"id\":\"935c68ba-7f0a-4e3b-8bcc-0fd1454ef940\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"qwen3-coder-plus\",\"content\":[{\"type\":\"text\",\"text\":\"Wrote hello.py.\"}],\"stop_reason\":null,\"usage\":{\"input_tokens\":1234,\"output_tokens\":56,\"cache_read_input_tokens\":0,\"total_tokens\":1290}}},{\"type\":\"result\",\"subtype\":\"success\",\"uuid\":\"27de8549-e08f-4f43-af53-9929ee83a102\",\"session_id\":\"bd2c873d-07f2-4716-a3f8-d51c2d696d1c\",\"is_error\":false,\"duration_ms\":6591,\"duration_api_ms\":4129,\"num_turns\":2,\"result\":\"Wrote hello.py.\",\"usage\":{\"input_tokens\":2468,\"output_tokens\":112,\"cache_read_input_tokens\":0,\"total_tokens\":2580},\"permission_denials\":[],\"stats\":{\"models\":{\"qwen3-coder-plus\":{\"api\":{\"totalRequests\":2,\"totalErrors\":0,\"totalLatencyMs\":3343},\"tokens\":{\"prompt\":2468,\"candidates\":112,\"total\":2580,\"cached\":0,\"thoughts\":0},\"bySource\":{\"main\":{\"api\":{\"totalRequests\":2,\"totalErrors\":0,\"totalLatencyMs\":3343},\"tokens\":{\"prompt\":2468,\"candidates\":112,\"total\":2580,\"cached\":0,\"thoughts\":0}}}}},\"tools\":{\"totalCalls\":1,\"totalSuccess\":1,\"totalFail\":0,\"totalDurationMs\":1756,\"totalDecisions\":{\"accept\":0,\"reject\":0,\"modify\":0,\"auto_accept\":1},\"byName\":{\"run_shell_command\":{\"count\":1,\"success\":1,\"fail\":0,\"durationMs\":1756,\"decisions\":{\"accept\":0,\"reject\":0,\"modify\":0,\"auto_accept\":1}}}},\"files\":{\"totalLinesAdded\":0,\"totalLinesRemoved\":0},\"skills\":{\"totalCalls\":0,\"totalSuccess\":0,\"totalFail\":0,\"byName\":{}},\"generation\":{\"timedRequests\":2,\"totalTtftMs\":3288,\"totalGenerationDurationMs\":55,\"totalThroughputOutputTokens\":112,\"last\":{\"model\":\"qwen3-coder-plus\",\"ttftMs\":144,\"generationDurationMs\":13,\"outputTokens\":56}}}}]";

const REPAIR = "[{\"type\":\"system\",\"subtype\":\"init\",\"uuid\":\"bd2c873d-07f2-4716-a3f8-d51c2d696d1c\",\"session_id\":\"bd2c873d-07f2-4716-a3f8-d51c2d696d1c\",\"cwd\":\"/tmp/oc-probe/seq-qwenCode/ws\",\"tools\":[\"web_fetch\",\"get_goal\",\"update_goal\",\"run_shell_command\"],\"mcp_servers\":[],\"model\":\"qwen3-coder-plus\",\"permission_mode\":\"yolo\",\"slash_commands\":[\"auth\",\"batch\"],\"qwen_code_version\":\"0.24.4\",\"agents\":[\"general-purpose\"]},{\"type\":\"assistant\",\"uuid\":\"3ca734a9-423b-4886-a80b-f4021c686465\",\"session_id\":\"bd2c873d-07f2-4716-a3f8-d51c2d696d1c\",\"parent_tool_use_id\":null,\"message\":{\"id\":\"3ca734a9-423b-4886-a80b-f4021c686465\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"qwen3-coder-plus\",\"content\":[{\"type\":\"tool_use\",\"id\":\"call_1__qwen_dup_2\",\"name\":\"run_shell_command\",\"input\":{\"command\":\"echo fixed >> notes.txt\"}}],\"stop_reason\":\"tool_use\",\"usage\":{\"input_tokens\":2000,\"output_tokens\":20,\"cache_read_input_tokens\":0,\"total_tokens\":2020}}},{\"type\":\"user\",\"uuid\":\"4b191afb-ec5b-4a2a-9464-d7abcd7ad1e5\",\"session_id\":\"bd2c873d-07f2-4716-a3f8-d51c2d696d1c\",\"parent_tool_use_id\":null,\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"call_1__qwen_dup_2\",\"is_error\":false,\"content\":\"Command: echo fixed >> notes.txt\\nDirectory: (root)\\nOutput: (empty)\\nError: (none)\\nExit Code: 0\\nSignal: (none)\\nProcess Group PGID: 9220\"}]}},{\"type\":\"assistant\",\"uuid\":\"9b11e939-3e8f-49ca-96f9-7ff410f3f4d6\",\"session_id\":\"bd2c873d-07f2-4716-a3f8-d51c2d696d1c\",\"parent_tool_use_id\":null,\"message\":{\"id\":\"9b11e939-3e8f-49ca-96f9-7ff410f3f4d6\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"qwen3-coder-plus\",\"content\":[{\"type\":\"text\",\"text\":\"Repaired.\"}],\"stop_reason\":null,\"usage\":{\"input_tokens\":2000,\"output_tokens\":20,\"cache_read_input_tokens\":0,\"total_tokens\":2020}}},{\"type\":\"result\",\"subtype\":\"success\",\"uuid\":\"2b94c678-1f99-4958-b73a-4e8e3a68d68a\",\"session_id\":\"bd2c873d-07f2-4716-a3f8-d51c2d696d1c\",\"is_error\":false,\"duration_ms\":5652,\"duration_api_ms\":4235,\"num_turns\":2,\"result\":\"Repaired.\",\"usage\":{\"input_tokens\":6468,\"output_tokens\":152,\"cache_read_input_tokens\":0,\"total_tokens\":6620},\"permission_denials\":[],\"stats\":{\"models\":{\"qwen3-coder-plus\":{\"api\":{\"totalRequests\":4,\"totalErrors\":0,\"totalLatencyMs\":6759},\"tokens\":{\"prompt\":6468,\"candidates\":152,\"total\":6620,\"cached\":0,\"thoughts\":0},\"bySource\":{\"main\":{\"api\":{\"totalRequests\":4,\"totalErrors\":0,\"totalLatencyMs\":6759},\"tokens\":{\"prompt\":6468,\"candidates\":152,\"total\":6620,\"cached\":0,\"thoughts\":0}}}}},\"tools\":{\"totalCalls\":2,\"totalSuccess\":2,\"totalFail\":0,\"totalDurationMs\":2492,\"totalDecisions\":{\"accept\":0,\"reject\":0,\"modify\":0,\"auto_accept\":2},\"byName\":{\"run_shell_command\":{\"count\":2,\"success\":2,\"fail\":0,\"durationMs\":2492,\"decisions\":{\"accept\":0,\"reject\":0,\"modify\":0,\"auto_accept\":2}}}},\"files\":{\"totalLinesAdded\":0,\"totalLinesRemoved\":0},\"skills\":{\"totalCalls\":0,\"totalSuccess\":0,\"totalFail\":0,\"byName\":{}},\"generation\":{\"timedRequests\":4,\"totalTtftMs\":6669,\"totalGenerationDurationMs\":90,\"totalThroughputOutputTokens\":152,\"last\":{\"model\":\"qwen3-coder-plus\",\"ttftMs\":57,\"generationDurationMs\":18,\"outputTokens\":20}}}}]";

const CACHED = "[{\"type\":\"system\",\"subtype\":\"init\",\"uuid\":\"fc94f6e1-174d-4855-9eea-8c531529182b\",\"session_id\":\"fc94f6e1-174d-4855-9eea-8c531529182b\",\"cwd\":\"/tmp/oc-probe/qd/ws\",\"tools\":[\"web_fetch\",\"get_goal\",\"update_goal\",\"run_shell_command\"],\"mcp_servers\":[],\"model\":\"my-odd-model\",\"permission_mode\":\"yolo\",\"slash_commands\":[\"auth\",\"batch\"],\"qwen_code_version\":\"0.24.4\",\"agents\":[\"general-purpose\"]},{\"type\":\"assistant\",\"uuid\":\"a7d028bb-16c2-4b03-8eb5-b757d0c9f9de\",\"session_id\":\"fc94f6e1-174d-4855-9eea-8c531529182b\",\"parent_tool_use_id\":null,\"message\":{\"id\":\"a7d028bb-16c2-4b03-8eb5-b757d0c9f9de\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"my-odd-model\",\"content\":[{\"type\":\"tool_use\",\"id\":\"call_1\",\"name\":\"run_shell_command\",\"input\":{\"command\":\"printf 'print(\\\"hello\\\")\\\\n' > hello.py\"}}],\"stop_reason\":\"tool_use\",\"usage\":{\"input_tokens\":1234,\"output_tokens\":56,\"cache_read_input_tokens\":200,\"total_tokens\":1290}}},{\"type\":\"user\",\"uuid\":\"14d2b5c8-d174-4c8f-9923-3f351bc118da\",\"session_id\":\"fc94f6e1-174d-4855-9eea-8c531529182b\",\"parent_tool_use_id\":null,\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"call_1\",\"is_error\":false,\"content\":\"Command: printf 'print(\\\"hello\\\")\\\\n' > hello.py\\nDirectory: (root)\\nOutput: (empty)\\nError: (none)\\nExit Code: 0\\nSignal: (none)\\nProcess Group PGID: 25338\"}]}},{\"type\":\"assistant\",\"uuid\":\"c9780ec5-a01e-4e34-b47a-3c1bf904411d\",\"session_id\":\"fc94f6e1-174d-4855-9eea-8c531529182b\",\"parent_tool_use_id\":null,\"message\":{\"id\":\"c9780ec5-a01e-4e34-b47a-3c1bf904411d\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"my-odd-model\",\"content\":[{\"type\":\"text\",\"text\":\"Wrote hello.py.\"}],\"stop_reason\":null,\"usage\":{\"input_tokens\":1234,\"output_tokens\":56,\"cache_read_input_tokens\":200,\"total_tokens\":1290}}},{\"type\":\"result\",\"subtype\":\"success\",\"uuid\":\"7f4d03d6-04b0-4cd1-a764-643db894e266\",\"session_id\":\"fc94f6e1-174d-4855-9eea-8c531529182b\",\"is_error\":false,\"duration_ms\":6677,\"duration_api_ms\":4440,\"num_turns\":2,\"result\":\"Wrote hello.py.\",\"usage\":{\"input_tokens\":2468,\"output_tokens\":112,\"cache_read_input_tokens\":400,\"total_tokens\":2580},\"permission_denials\":[],\"stats\":{\"models\":{\"my-odd-model\":{\"api\":{\"totalRequests\":2,\"totalErrors\":0,\"totalLatencyMs\":3715},\"tokens\":{\"prompt\":2468,\"candidates\":112,\"total\":2580,\"cached\":400,\"thoughts\":14},\"bySource\":{\"main\":{\"api\":{\"totalRequests\":2,\"totalErrors\":0,\"totalLatencyMs\":3715},\"tokens\":{\"prompt\":2468,\"candidates\":112,\"total\":2580,\"cached\":400,\"thoughts\":14}}}}},\"tools\":{\"totalCalls\":1,\"totalSuccess\":1,\"totalFail\":0,\"totalDurationMs\":1387,\"totalDecisions\":{\"accept\":0,\"reject\":0,\"modify\":0,\"auto_accept\":1},\"byName\":{\"run_shell_command\":{\"count\":1,\"success\":1,\"fail\":0,\"durationMs\":1387,\"decisions\":{\"accept\":0,\"reject\":0,\"modify\":0,\"auto_accept\":1}}}},\"files\":{\"totalLinesAdded\":0,\"totalLinesRemoved\":0},\"skills\":{\"totalCalls\":0,\"totalSuccess\":0,\"totalFail\":0,\"byName\":{}},\"generation\":{\"timedRequests\":2,\"totalTtftMs\":3658,\"totalGenerationDurationMs\":57,\"totalThroughputOutputTokens\":112,\"last\":{\"model\":\"my-odd-model\",\"ttftMs\":160,\"generationDurationMs\":20,\"outputTokens\":56}}}}]";

const UNAUTHORIZED = "[{\"type\":\"system\",\"subtype\":\"init\",\"uuid\":\"20fd3f01-e01d-4938-8846-d0875d5a5569\",\"session_id\":\"20fd3f01-e01d-4938-8846-d0875d5a5569\",\"cwd\":\"/tmp/oc-probe/qf401/ws\",\"tools\":[\"web_fetch\",\"get_goal\",\"update_goal\",\"run_shell_command\"],\"mcp_servers\":[],\"model\":\"qwen3-coder-plus\",\"permission_mode\":\"yolo\",\"slash_commands\":[\"auth\",\"batch\"],\"qwen_code_version\":\"0.24.4\",\"agents\":[\"general-purpose\"]},{\"type\":\"assistant\",\"uuid\":\"b5f10e35-cce4-43f1-ad00-4e586d6f6b08\",\"session_id\":\"20fd3f01-e01d-4938-8846-d0875d5a5569\",\"parent_tool_use_id\":null,\"message\":{\"id\":\"b5f10e35-cce4-43f1-ad00-4e586d6f6b08\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"qwen3-coder-plus\",\"content\":[{\"type\":\"text\",\"text\":\"[API Error: 401 Incorrect API key provided.]\"}],\"stop_reason\":null,\"usage\":{\"input_tokens\":0,\"output_tokens\":0}}},{\"type\":\"result\",\"subtype\":\"error_during_execution\",\"uuid\":\"76748571-3992-408e-94ad-bdb990cff817\",\"session_id\":\"20fd3f01-e01d-4938-8846-d0875d5a5569\",\"is_error\":true,\"duration_ms\":6155,\"duration_api_ms\":0,\"num_turns\":1,\"usage\":{\"input_tokens\":0,\"output_tokens\":0,\"cache_read_input_tokens\":0},\"permission_denials\":[],\"error\":{\"message\":\"[API Error: 401 Incorrect API key provided.]\"}}]";

const CALL: PresetCall = {
  model: 'qwen3-coder-plus',
  baseUrl: 'http://127.0.0.1:8123/compatible-mode/v1',
  apiKeyEnv: 'OPENAI_API_KEY',
  promptFile: '/run/envgap/prompt.md',
  workspace: '/workspace',
  home: '/root',
  resume: false,
};

describe('the qwen-code preset', () => {
  it('installs @qwen-code/qwen-code and names its defaults', () => {
    expect(qwenCode).toMatchObject({
      kind: 'qwen-code',
      title: 'Qwen Code',
      install: { registry: 'npm', package: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen' },
      vendor: { model: 'qwen3-coder-plus', apiKeyEnv: 'OPENAI_API_KEY', baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1' },
      costSource: null,
      sessionPaths: ['.qwen/projects'],
    });
  });

  it('selects the OpenAI-compatible auth and turns statistics, updates, telemetry and memory agents off', () => {
    const files = qwenCode.homeFiles(CALL);
    expect(Object.keys(files)).toEqual(['.qwen/settings.json']);
    expect(JSON.parse(files['.qwen/settings.json'])).toEqual({
      security: { auth: { selectedType: 'openai' } },
      general: { enableAutoUpdate: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
    });
  });

  it('points the OpenAI variables at the relay and the model', () => {
    expect(qwenCode.env(CALL)).toEqual({
      OPENAI_BASE_URL: 'http://127.0.0.1:8123/compatible-mode/v1',
      OPENAI_MODEL: 'qwen3-coder-plus',
      QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
    });
  });

  it('runs headless with every tool allowed, the prompt on stdin, --continue to resume', () => {
    expect(qwenCode.command(CALL)).toBe("qwen --yolo --output-format json < '/run/envgap/prompt.md'");
    expect(qwenCode.command({ ...CALL, resume: true })).toBe("qwen --yolo --output-format json --continue < '/run/envgap/prompt.md'");
    expect(qwenCode.command({ ...CALL, apiKeyEnv: 'DASHSCOPE_API_KEY' })).toBe(`OPENAI_API_KEY="$DASHSCOPE_API_KEY" qwen --yolo --output-format json < '/run/envgap/prompt.md'`);
    expect(() => qwenCode.command({ ...CALL, apiKeyEnv: 'KEY; rm -rf /' })).toThrow(/not a variable name/);
  });

  it('hands the shell its prompt and key as the CLI reads them (a stand-in qwen on PATH)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-qwen-'));
    try {
      const bin = path.join(dir, 'bin');
      fs.mkdirSync(bin);
      fs.writeFileSync(path.join(bin, 'qwen'), '#!/bin/sh\nprintf \'%s\\n\' "$@" > "$OUT/args"\ncat > "$OUT/stdin"\nprintf %s "$OPENAI_API_KEY" > "$OUT/key"\n', { mode: 0o755 });
      const promptFile = path.join(dir, "it's the prompt.md");
      fs.writeFileSync(promptFile, '--help is not an option here\n');
      const call = { ...CALL, promptFile, apiKeyEnv: 'STUDY_KEY', resume: true };
      execFileSync('sh', ['-c', qwenCode.command(call)], { cwd: dir, env: { PATH: `${bin}:/usr/bin:/bin`, OUT: dir, STUDY_KEY: 'sk-study' }, stdio: ['ignore', 'pipe', 'pipe'] });
      expect(fs.readFileSync(path.join(dir, 'args'), 'utf8')).toBe('--yolo\n--output-format\njson\n--continue\n');
      expect(fs.readFileSync(path.join(dir, 'stdin'), 'utf8')).toBe('--help is not an option here\n');
      expect(fs.readFileSync(path.join(dir, 'key'), 'utf8')).toBe('sk-study');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads a Gen's tokens from its assistant messages, one a model response", () => {
    expect(qwenCode.usage(GEN)).toEqual({ tokensIn: 2468, tokensOut: 112, costUsd: null });
  });

  it("reads a Repair's own tokens, not the resumed session's running total in its result", () => {
    const result = JSON.parse(REPAIR).at(-1);
    expect(result.usage).toMatchObject({ input_tokens: 6468, output_tokens: 152 });
    expect(qwenCode.usage(REPAIR)).toEqual({ tokensIn: 4000, tokensOut: 40, costUsd: null });
  });

  it('counts cached prompt tokens in the prompt tokens, as the endpoint did', () => {
    expect(qwenCode.usage(CACHED)).toEqual({ tokensIn: 2468, tokensOut: 112, costUsd: null });
  });

  it('reads the zero tokens of a failed call', () => {
    expect(qwenCode.usage(UNAUTHORIZED)).toEqual({ tokensIn: 0, tokensOut: 0, costUsd: null });
  });

  it('reads its final message, the text of its last assistant message, as its result does', () => {
    expect(qwenCode.finalText!(GEN)).toBe('Wrote hello.py.');
    expect(qwenCode.finalText!(REPAIR)).toBe('Repaired.');
    expect(qwenCode.finalText!(CACHED)).toBe('Wrote hello.py.');
    for (const output of [GEN, REPAIR, CACHED]) expect(qwenCode.finalText!(output)).toBe(JSON.parse(output).at(-1).result);
    // Stream-json lines, and no closing result (a run cut short).
    const lines = (JSON.parse(GEN) as object[]).map((m) => JSON.stringify(m));
    expect(qwenCode.finalText!(`${lines.join('\n')}\n`)).toBe('Wrote hello.py.');
    expect(qwenCode.finalText!(lines.slice(0, -1).join('\n'))).toBe('Wrote hello.py.');
  });

  it('joins the text blocks of that message and keeps them as they are', () => {
    const messages = JSON.parse(GEN);
    const last = messages.at(-2);
    last.message.content = [{ type: 'text', text: '  Done.\n\n' }, { type: 'tool_use', id: 'x', name: 'y', input: {} }, { type: 'text', text: '```json\n{"ready": true}\n```\n' }];
    expect(qwenCode.finalText!(JSON.stringify(messages))).toBe('  Done.\n\n```json\n{"ready": true}\n```\n');
    // A subagent's message (parent_tool_use_id set) is not the agent's answer.
    messages.splice(-1, 0, { ...last, parent_tool_use_id: 'call_9', message: { ...last.message, content: [{ type: 'text', text: 'subagent' }] } });
    expect(qwenCode.finalText!(JSON.stringify(messages))).toBe('  Done.\n\n```json\n{"ready": true}\n```\n');
  });

  it('gives no final message where the run failed or printed none', () => {
    // The 401's assistant text "[API Error: 401 ...]" is Qwen Code's own; its result is an error.
    expect(qwenCode.finalText!(UNAUTHORIZED)).toBeNull();
    expect(qwenCode.finalText!('')).toBeNull();
    expect(qwenCode.finalText!('Error: something went wrong\n')).toBeNull();
    expect(qwenCode.finalText!(JSON.stringify(JSON.parse(GEN).slice(0, 3)))).toBeNull();
  });

  it('reads stream-json lines too, and gives nulls for anything else', () => {
    const lines = (JSON.parse(GEN) as object[]).map((m) => JSON.stringify(m)).join('\n');
    expect(qwenCode.usage(`${lines}\n`)).toEqual({ tokensIn: 2468, tokensOut: 112, costUsd: null });
    const none = { tokensIn: null, tokensOut: null, costUsd: null };
    expect(qwenCode.usage('')).toEqual(none);
    expect(qwenCode.usage('Error: something went wrong\n')).toEqual(none);
    expect(qwenCode.usage('[{"type":"result","usage":{"input_tokens":5,"output_tokens":1}}]')).toEqual(none);
    expect(qwenCode.usage('[{"type":"assistant","message":{"usage":{"input_tokens":-1,"output_tokens":1}}}]')).toEqual(none);
  });
});
