import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { opencode } from '../../../../src/agents/presets/opencode';
import type { PresetCall } from '../../../../src/agents/presets/types';

/**
 * opencode 1.18.33 as a preset. The JSON lines below are what the real CLI printed (`run --format
 * json`) against the model-API double (test/helpers/modelApi/openaiChat.ts): a Gen whose two responses
 * reported 1234 in and 56 out each; the same with 200 cached prompt tokens and 7 reasoning tokens in
 * each response (opencode's step tokens leave both out of input and output); a 401 (no retry) and a
 * 500 after its 5 retries.
 */

const GEN = [
  "{\"type\":\"step_start\",\"timestamp\":1796226983860,\"sessionID\":\"ses_dc88778e3ffe5QgNjIp51ZeKWU\",\"part\":{\"id\":\"prt_23778a66b001pGbvuEc3gaRnRG\",\"messageID\":\"msg_237789efc001BhE9tYDIkHpOrA\",\"sessionID\":\"ses_dc88778e3ffe5QgNjIp51ZeKWU\",\"type\":\"step-start\"}}",
  "{\"type\":\"tool_use\",\"timestamp\":1796226990759,\"sessionID\":\"ses_dc88778e3ffe5QgNjIp51ZeKWU\",\"part\":{\"type\":\"tool\",\"tool\":\"bash\",\"callID\":\"call_1\",\"state\":{\"status\":\"completed\",\"input\":{\"command\":\"printf 'print(\\\"hello\\\")\\\\n' > hello.py\"},\"output\":\"(no output)\",\"metadata\":{\"output\":\"(no output)\",\"exit\":0,\"truncated\":false},\"title\":\"printf 'print(\\\"hello\\\")\\\\n' > hello.py\",\"time\":{\"start\":1796226983744,\"end\":1796226990467}},\"id\":\"prt_23778a6c3001jYdMBvk9MDHCNb\",\"sessionID\":\"ses_dc88778e3ffe5QgNjIp51ZeKWU\",\"messageID\":\"msg_237789efc001BhE9tYDIkHpOrA\"}}",
  "{\"type\":\"step_finish\",\"timestamp\":1796226990761,\"sessionID\":\"ses_dc88778e3ffe5QgNjIp51ZeKWU\",\"part\":{\"id\":\"prt_23778c1c3001gqsRqvgFYlcbBL\",\"reason\":\"tool-calls\",\"messageID\":\"msg_237789efc001BhE9tYDIkHpOrA\",\"sessionID\":\"ses_dc88778e3ffe5QgNjIp51ZeKWU\",\"type\":\"step-finish\",\"tokens\":{\"total\":1290,\"input\":1234,\"output\":56,\"reasoning\":0,\"cache\":{\"write\":0,\"read\":0}},\"cost\":0}}",
  "{\"type\":\"step_start\",\"timestamp\":1796226991798,\"sessionID\":\"ses_dc88778e3ffe5QgNjIp51ZeKWU\",\"part\":{\"id\":\"prt_23778c564001SDTSwkhIvU9V0E\",\"messageID\":\"msg_23778c24a001wdMrPeKLJfacFW\",\"sessionID\":\"ses_dc88778e3ffe5QgNjIp51ZeKWU\",\"type\":\"step-start\"}}",
  "{\"type\":\"text\",\"timestamp\":1796226991811,\"sessionID\":\"ses_dc88778e3ffe5QgNjIp51ZeKWU\",\"part\":{\"id\":\"prt_23778c587001AWyaTCF2fJuTyu\",\"messageID\":\"msg_23778c24a001wdMrPeKLJfacFW\",\"sessionID\":\"ses_dc88778e3ffe5QgNjIp51ZeKWU\",\"type\":\"text\",\"text\":\"Wrote hello.py.\",\"time\":{\"start\":1796226991495,\"end\":1796226991530}}}",
  "{\"type\":\"step_finish\",\"timestamp\":1796226991811,\"sessionID\":\"ses_dc88778e3ffe5QgNjIp51ZeKWU\",\"part\":{\"id\":\"prt_23778c5e5001SzX7Xp4NCCjSay\",\"reason\":\"stop\",\"messageID\":\"msg_23778c24a001wdMrPeKLJfacFW\",\"sessionID\":\"ses_dc88778e3ffe5QgNjIp51ZeKWU\",\"type\":\"step-finish\",\"tokens\":{\"total\":1290,\"input\":1234,\"output\":56,\"reasoning\":0,\"cache\":{\"write\":0,\"read\":0}},\"cost\":0}}",
  "",
].join("\n");

const CACHED = [
  "{\"type\":\"step_start\",\"timestamp\":1796225904329,\"sessionID\":\"ses_dc89802b3ffeNEPJ1odIHgLKrd\",\"part\":{\"id\":\"prt_237682e03001w2Ot79csJNguDS\",\"messageID\":\"msg_237681cb2001lz9l4B6XE6dvap\",\"sessionID\":\"ses_dc89802b3ffeNEPJ1odIHgLKrd\",\"type\":\"step-start\"}}",
  "{\"type\":\"tool_use\",\"timestamp\":1796225907134,\"sessionID\":\"ses_dc89802b3ffeNEPJ1odIHgLKrd\",\"part\":{\"type\":\"tool\",\"tool\":\"bash\",\"callID\":\"call_1\",\"state\":{\"status\":\"completed\",\"input\":{\"command\":\"printf 'print(\\\"hello\\\")\\\\n' > hello.py\"},\"output\":\"(no output)\",\"metadata\":{\"output\":\"(no output)\",\"exit\":0,\"truncated\":false},\"title\":\"printf 'print(\\\"hello\\\")\\\\n' > hello.py\",\"time\":{\"start\":1796225904288,\"end\":1796225905500}},\"id\":\"prt_237682e280019K22SCFbW3V4qs\",\"sessionID\":\"ses_dc89802b3ffeNEPJ1odIHgLKrd\",\"messageID\":\"msg_237681cb2001lz9l4B6XE6dvap\"}}",
  "{\"type\":\"step_finish\",\"timestamp\":1796225907134,\"sessionID\":\"ses_dc89802b3ffeNEPJ1odIHgLKrd\",\"part\":{\"id\":\"prt_2376833e6001CUeRITlFwKqSVa\",\"reason\":\"tool-calls\",\"messageID\":\"msg_237681cb2001lz9l4B6XE6dvap\",\"sessionID\":\"ses_dc89802b3ffeNEPJ1odIHgLKrd\",\"type\":\"step-finish\",\"tokens\":{\"total\":1290,\"input\":1034,\"output\":49,\"reasoning\":7,\"cache\":{\"write\":0,\"read\":200}},\"cost\":0}}",
  "{\"type\":\"step_start\",\"timestamp\":1796225908191,\"sessionID\":\"ses_dc89802b3ffeNEPJ1odIHgLKrd\",\"part\":{\"id\":\"prt_237683c01001ck4fXBxy626vYP\",\"messageID\":\"msg_2376834e6001hg7nUQULiRZ3EC\",\"sessionID\":\"ses_dc89802b3ffeNEPJ1odIHgLKrd\",\"type\":\"step-start\"}}",
  "{\"type\":\"text\",\"timestamp\":1796225908200,\"sessionID\":\"ses_dc89802b3ffeNEPJ1odIHgLKrd\",\"part\":{\"id\":\"prt_237683c33001ADMHX2gUFHSc7S\",\"messageID\":\"msg_2376834e6001hg7nUQULiRZ3EC\",\"sessionID\":\"ses_dc89802b3ffeNEPJ1odIHgLKrd\",\"type\":\"text\",\"text\":\"Wrote hello.py.\",\"time\":{\"start\":1796225907763,\"end\":1796225907813}}}",
  "{\"type\":\"step_finish\",\"timestamp\":1796225908200,\"sessionID\":\"ses_dc89802b3ffeNEPJ1odIHgLKrd\",\"part\":{\"id\":\"prt_237683c98001mGgj6jMtNOnS7X\",\"reason\":\"stop\",\"messageID\":\"msg_2376834e6001hg7nUQULiRZ3EC\",\"sessionID\":\"ses_dc89802b3ffeNEPJ1odIHgLKrd\",\"type\":\"step-finish\",\"tokens\":{\"total\":1290,\"input\":1034,\"output\":49,\"reasoning\":7,\"cache\":{\"write\":0,\"read\":200}},\"cost\":0}}",
  "",
].join("\n");

const UNAUTHORIZED = [
  "{\"type\":\"error\",\"timestamp\":1796225997349,\"sessionID\":\"ses_dc8969e07ffeuxj7Dyd1iq4MOz\",\"error\":{\"name\":\"APIError\",\"data\":{\"message\":\"Incorrect API key provided.\",\"statusCode\":401,\"isRetryable\":false,\"responseHeaders\":{\"connection\":\"keep-alive\",\"content-type\":\"application/json\",\"date\":\"Wed, 02 Dec 2026 15:39:56 GMT\",\"keep-alive\":\"timeout=5\",\"transfer-encoding\":\"chunked\"},\"responseBody\":\"{\\\"error\\\":{\\\"message\\\":\\\"Incorrect API key provided.\\\",\\\"type\\\":\\\"invalid_request_error\\\",\\\"param\\\":null,\\\"code\\\":\\\"invalid_api_key\\\"}}\",\"metadata\":{\"url\":\"http://127.0.0.1:38227/v1/chat/completions\"}}}}",
  "",
].join("\n");

const SERVER_ERROR = [
  "{\"type\":\"error\",\"timestamp\":1796226116146,\"sessionID\":\"ses_dc896110cffeSJBlQ0JiJH4T4X\",\"error\":{\"name\":\"APIError\",\"data\":{\"message\":\"The server had an error while processing your request. Sorry about that!\",\"statusCode\":500,\"isRetryable\":true,\"responseHeaders\":{\"connection\":\"keep-alive\",\"content-type\":\"application/json\",\"date\":\"Wed, 02 Dec 2026 15:41:55 GMT\",\"keep-alive\":\"timeout=5\",\"transfer-encoding\":\"chunked\"},\"responseBody\":\"{\\\"error\\\":{\\\"message\\\":\\\"The server had an error while processing your request. Sorry about that!\\\",\\\"type\\\":\\\"server_error\\\",\\\"param\\\":null,\\\"code\\\":null}}\",\"metadata\":{\"url\":\"http://127.0.0.1:42271/v1/chat/completions\"}}}}",
  "",
].join("\n");

const CALL: PresetCall = {
  model: 'gpt-4.1',
  baseUrl: 'http://127.0.0.1:8123/v1',
  apiKeyEnv: 'OPENAI_API_KEY',
  promptFile: '/run/envgap/prompt.md',
  workspace: '/workspace',
  home: '/root',
  resume: false,
};

describe('the opencode preset', () => {
  it('installs opencode-ai and names its defaults', () => {
    expect(opencode).toMatchObject({
      kind: 'opencode',
      title: 'opencode',
      install: { registry: 'npm', package: 'opencode-ai', version: '1.18.33', bin: 'opencode' },
      vendor: { model: 'gpt-4.1', apiKeyEnv: 'OPENAI_API_KEY', baseUrl: 'https://api.openai.com/v1' },
      costSource: null,
      sessionPaths: ['.local/share/opencode'],
    });
  });

  it('configures one OpenAI-compatible provider at the relay, every permission allowed, sharing, updates and snapshots off', () => {
    const files = opencode.homeFiles({ ...CALL, model: 'Qwen/Qwen2.5-Coder-32B-Instruct', apiKeyEnv: 'STUDY_KEY' });
    expect(Object.keys(files).sort()).toEqual(['.config/opencode/node_modules/.envgap', '.config/opencode/opencode.json', '.config/opencode/package-lock.json']);
    expect(JSON.parse(files['.config/opencode/opencode.json'])).toEqual({
      autoupdate: false,
      share: 'disabled',
      snapshot: false,
      permission: { '*': 'allow' },
      enabled_providers: ['envgap'],
      model: 'envgap/Qwen/Qwen2.5-Coder-32B-Instruct',
      small_model: 'envgap/Qwen/Qwen2.5-Coder-32B-Instruct',
      provider: {
        envgap: {
          npm: '@ai-sdk/openai-compatible',
          name: 'envgap',
          options: { baseURL: 'http://127.0.0.1:8123/v1', apiKey: '{env:STUDY_KEY}' },
          models: { 'Qwen/Qwen2.5-Coder-32B-Instruct': { name: 'Qwen/Qwen2.5-Coder-32B-Instruct' } },
        },
      },
    });
    expect(() => opencode.homeFiles({ ...CALL, apiKeyEnv: 'A}B' })).toThrow(/not a variable name/);
  });

  it('marks @opencode-ai/plugin installed in its config folder, so no npm install runs there', () => {
    const lock = JSON.parse(opencode.homeFiles(CALL)['.config/opencode/package-lock.json']);
    expect(lock.packages['']).toEqual({ dependencies: { '@opencode-ai/plugin': '1.18.33' } });
  });

  it('keeps models.dev, default plugins, LSP downloads, sharing and auto-update off', () => {
    expect(opencode.env(CALL)).toEqual({
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_SHARE: '1',
    });
  });

  it('runs `opencode run` with JSON events, a fixed title, the model, the prompt on stdin, --continue to resume', () => {
    expect(opencode.command(CALL)).toBe("opencode run --format json --title envgap --model 'envgap/gpt-4.1' < '/run/envgap/prompt.md'");
    expect(opencode.command({ ...CALL, resume: true })).toBe("opencode run --format json --title envgap --model 'envgap/gpt-4.1' --continue < '/run/envgap/prompt.md'");
  });

  it('hands the shell its prompt and model as the CLI reads them (a stand-in opencode on PATH)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-opencode-'));
    try {
      const bin = path.join(dir, 'bin');
      fs.mkdirSync(bin);
      fs.writeFileSync(path.join(bin, 'opencode'), '#!/bin/sh\nprintf \'%s\\n\' "$@" > "$OUT/args"\ncat > "$OUT/stdin"\n', { mode: 0o755 });
      const promptFile = path.join(dir, 'prompt.md');
      fs.writeFileSync(promptFile, '-- a prompt that starts like an option\n');
      execFileSync('sh', ['-c', opencode.command({ ...CALL, model: "it's $HOME", promptFile, resume: true })], { cwd: dir, env: { PATH: `${bin}:/usr/bin:/bin`, OUT: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
      expect(fs.readFileSync(path.join(dir, 'args'), 'utf8')).toBe("run\n--format\njson\n--title\nenvgap\n--model\nenvgap/it's $HOME\n--continue\n");
      expect(fs.readFileSync(path.join(dir, 'stdin'), 'utf8')).toBe('-- a prompt that starts like an option\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sums the tokens of every step_finish event', () => {
    expect(opencode.usage(GEN)).toEqual({ tokensIn: 2468, tokensOut: 112, costUsd: null });
  });

  it('adds back the cache reads to the prompt tokens and the reasoning to the completion tokens', () => {
    const steps = CACHED.split('\n').filter((l) => l.includes('"step_finish"')).map((l) => JSON.parse(l).part.tokens);
    expect(steps[0]).toEqual({ total: 1290, input: 1034, output: 49, reasoning: 7, cache: { write: 0, read: 200 } });
    expect(opencode.usage(CACHED)).toEqual({ tokensIn: 2468, tokensOut: 112, costUsd: null });
  });

  it('reads its final message, the text of its last text event, as it is', () => {
    expect(opencode.finalText!(GEN)).toBe('Wrote hello.py.');
    expect(opencode.finalText!(CACHED)).toBe('Wrote hello.py.');
  });

  it("joins the text parts of the last message that has any, not an earlier message's", () => {
    const text = (messageID: string, value: string) => JSON.stringify({ type: 'text', sessionID: 's', part: { id: `prt_${value.length}`, messageID, sessionID: 's', type: 'text', text: value } });
    const output = [text('msg_1', 'I will write it.'), GEN.split('\n')[1], text('msg_2', '  Done.\n\n'), text('msg_2', '```json\n{"ready": true}\n```\n'), ''].join('\n');
    expect(opencode.finalText!(output)).toBe('  Done.\n\n```json\n{"ready": true}\n```\n');
  });

  it('gives no final message where it printed no text (an error event) or nothing is JSON', () => {
    expect(opencode.finalText!(UNAUTHORIZED)).toBeNull();
    expect(opencode.finalText!(SERVER_ERROR)).toBeNull();
    expect(opencode.finalText!('')).toBeNull();
    expect(opencode.finalText!('Error: Unexpected server error\n{not json}\n')).toBeNull();
  });

  it('gives nulls where no step finished (an error event) or nothing is JSON', () => {
    const none = { tokensIn: null, tokensOut: null, costUsd: null };
    expect(opencode.usage(UNAUTHORIZED)).toEqual(none);
    expect(opencode.usage(SERVER_ERROR)).toEqual(none);
    expect(opencode.usage('')).toEqual(none);
    expect(opencode.usage('Error: Unexpected server error\n{not json}\n')).toEqual(none);
  });
});
