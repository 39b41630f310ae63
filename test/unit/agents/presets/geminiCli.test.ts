import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEDUPE_SESSIONS, geminiCli, geminiSettings } from '../../../../src/agents/presets/geminiCli';
import type { PresetCall } from '../../../../src/agents/presets/types';

/**
 * Gemini CLI 0.61.0 as a preset. The outputs below are what the real CLI printed against the model-API
 * double (test/helpers/modelApi/gemini.ts): a Gen whose two responses reported 1234 in and 56 out
 * each (stdout), and the error objects of a 400 (context window) and of a 429 after its 10 attempts
 * (stderr; exit 144 and 173).
 */

const GEN_STDOUT = JSON.stringify(
  JSON.parse(
    '{"session_id":"5ef1b6ea-1fbe-48f6-8b19-6fa68fad2d6a","response":"Wrote hello.py.","stats":{"models":{"gemini-2.5-pro":{"api":{"totalRequests":2,"totalErrors":0,"totalLatencyMs":670,"errorsByType":{}},"tokens":{"input":2468,"prompt":2468,"candidates":112,"total":2580,"cached":0,"thoughts":0,"tool":0},"roles":{"main":{"totalRequests":2,"totalErrors":0,"totalLatencyMs":670,"tokens":{"input":2468,"prompt":2468,"candidates":112,"total":2580,"cached":0,"thoughts":0,"tool":0}}}}},"tools":{"totalCalls":1,"totalSuccess":1,"totalFail":0,"totalDurationMs":386,"totalDecisions":{"accept":1,"reject":0,"modify":0,"auto_accept":0},"byName":{"run_shell_command":{"count":1,"success":1,"fail":0,"durationMs":386,"decisions":{"accept":1,"reject":0,"modify":0,"auto_accept":0}}}},"files":{"totalLinesAdded":0,"totalLinesRemoved":0}}}',
  ),
  null,
  2,
);
const CONTEXT_STDERR =
  'YOLO mode is enabled. All tool calls will be automatically approved.\n{\n  "session_id": "d5f69e56-1232-4f62-94d1-746035cac332",\n  "error": {\n    "type": "Error",\n    "message": "{\\"error\\":{\\"code\\":400,\\"message\\":\\"The input token count (1048577) exceeds the maximum number of tokens allowed (1048576).\\",\\"status\\":\\"INVALID_ARGUMENT\\"}}",\n    "code": 400\n  }\n}\n';
const RATE_LIMITED_STDERR =
  'Attempt 1 failed with status 429. Retrying with backoff... _ApiError: {"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}\n{\n  "session_id": "6d8d03f6-2a34-45b5-ac08-80012ed75041",\n  "error": {\n    "type": "Error",\n    "message": "Resource has been exhausted (e.g. check quota).",\n    "code": 429\n  }\n}\n';

const CALL: PresetCall = {
  model: 'gemini-2.5-pro',
  baseUrl: 'http://127.0.0.1:8123',
  apiKeyEnv: 'GEMINI_API_KEY',
  promptFile: '/run/envgap/prompt.md',
  workspace: '/workspace',
  home: '/root',
  resume: false,
};

const NONE = { tokensIn: null, tokensOut: null, costUsd: null };

describe('the gemini-cli preset', () => {
  it('installs @google/gemini-cli and names its defaults', () => {
    expect(geminiCli).toMatchObject({
      kind: 'gemini-cli',
      title: 'Gemini CLI',
      install: { registry: 'npm', package: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
      vendor: { model: 'gemini-2.5-pro', apiKeyEnv: 'GEMINI_API_KEY', baseUrl: 'https://generativelanguage.googleapis.com' },
      costSource: null,
      sessionPaths: ['.gemini/tmp'],
    });
  });

  it('writes settings.json: the API-key auth type, and no telemetry, update checks, IDE mode or trust prompt', () => {
    const files = geminiCli.homeFiles(CALL);
    expect(Object.keys(files)).toEqual(['.gemini/settings.json']);
    const settings = JSON.parse(files['.gemini/settings.json']);
    expect(settings).toEqual(geminiSettings());
    expect(settings).toMatchObject({
      // Without it a base URL makes it pick the "gateway" auth type: exit 41, "Invalid auth method selected."
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, sessionRetention: { enabled: false } },
      ide: { enabled: false },
    });
  });

  it('runs headless with every tool approved, the workspace trusted, the prompt on stdin and a JSON result', () => {
    expect(geminiCli.command(CALL)).toBe("gemini --skip-trust --yolo --model 'gemini-2.5-pro' --output-format json -p '' < '/run/envgap/prompt.md'");
  });

  it("hands a study's own key variable over as GEMINI_API_KEY and quotes what it puts on the line", () => {
    const command = geminiCli.command({ ...CALL, apiKeyEnv: 'MY_KEY', model: "it's", promptFile: '/run/a b.md' });
    expect(command).toBe(`GEMINI_API_KEY="$MY_KEY" gemini --skip-trust --yolo --model 'it'\\''s' --output-format json -p '' < '/run/a b.md'`);
    expect(() => geminiCli.command({ ...CALL, apiKeyEnv: 'X; rm -rf /' })).toThrow(/not a variable name/);
  });

  it('continues the newest session of the workspace, its doubled tool results dropped first', () => {
    const command = geminiCli.command({ ...CALL, resume: true });
    expect(command.endsWith(" gemini --skip-trust --yolo --model 'gemini-2.5-pro' --output-format json --resume latest -p '' < '/run/envgap/prompt.md'")).toBe(true);
    expect(command.startsWith(`node -e '${DEDUPE_SESSIONS}' "$HOME/.gemini/tmp" 2>/dev/null; `)).toBe(true);
    // The script goes on the line in single quotes, on one line.
    expect(DEDUPE_SESSIONS).not.toMatch(/['\n]/);
  });

  it('points it at the relay, keeps it one process and gives no key in env()', () => {
    const env = geminiCli.env(CALL);
    expect(env).toEqual({
      GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:8123',
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      GEMINI_TELEMETRY_ENABLED: 'false',
      GEMINI_CLI_NO_RELAUNCH: 'true',
      NO_BROWSER: 'true',
    });
  });

  it("reads its final message, the JSON result's `response`, as it is", () => {
    expect(geminiCli.finalText!(GEN_STDOUT)).toBe('Wrote hello.py.');
    expect(geminiCli.finalText!(`Loaded cached credentials.\n${GEN_STDOUT}\n`)).toBe('Wrote hello.py.');
    const answer = '  Done.\n\n```json\n{"ready": true}\n```\n';
    expect(geminiCli.finalText!(JSON.stringify({ ...JSON.parse(GEN_STDOUT), response: answer }, null, 2))).toBe(answer);
  });

  it('gives no final message where it printed no result', () => {
    expect(geminiCli.finalText!('')).toBeNull();
    expect(geminiCli.finalText!('not json')).toBeNull();
    // A fatal API error prints its error object (no response) on stderr, and nothing on stdout.
    expect(geminiCli.finalText!(RATE_LIMITED_STDERR)).toBeNull();
    expect(geminiCli.finalText!(CONTEXT_STDERR)).toBeNull();
  });

  it('reads the tokens of its JSON result', () => {
    // Two responses of 1234 in and 56 out.
    expect(geminiCli.usage(GEN_STDOUT)).toEqual({ tokensIn: 2468, tokensOut: 112, costUsd: null });
    expect(geminiCli.usage(`Loaded cached credentials.\n${GEN_STDOUT}\n`)).toEqual(geminiCli.usage(GEN_STDOUT));
  });

  it('sums every model, with cached, tool-use and thinking tokens', () => {
    const result = JSON.parse(GEN_STDOUT);
    result.stats.models = {
      'gemini-2.5-pro': { tokens: { input: 700, prompt: 1000, candidates: 50, total: 1090, cached: 300, thoughts: 30, tool: 10 } },
      'gemini-2.5-flash-lite': { tokens: { input: 200, prompt: 200, candidates: 5, total: 205, cached: 0, thoughts: 0, tool: 0 } },
    };
    expect(geminiCli.usage(JSON.stringify(result))).toEqual({ tokensIn: 1000 + 10 + 200, tokensOut: 50 + 30 + 5, costUsd: null });
  });

  it('reports no usage where it printed no result', () => {
    expect(geminiCli.usage('')).toEqual(NONE);
    expect(geminiCli.usage('not json')).toEqual(NONE);
    // A fatal API error prints its error object on stderr, and nothing on stdout.
    expect(geminiCli.usage(RATE_LIMITED_STDERR)).toEqual(NONE);
    expect(geminiCli.usage('{"session_id":"x","response":"","stats":{"models":{}}}')).toEqual(NONE);
  });

  it('tells a context overflow and the turn limit from its output, other failures by their exit status alone', () => {
    expect(geminiCli.reportedFailure?.(CONTEXT_STDERR)).toBe('AgentContext');
    expect(geminiCli.reportedFailure?.('Context window will overflow (estimated: 1048000, remaining: 1000)')).toBe('AgentContext');
    expect(geminiCli.reportedFailure?.('Reached max session turns for this session. Increase the number of turns by specifying maxSessionTurns in settings.json.')).toBe('AgentBudget');
    expect(geminiCli.reportedFailure?.(RATE_LIMITED_STDERR)).toBeNull();
    expect(geminiCli.reportedFailure?.(GEN_STDOUT)).toBeNull();
  });
});

/**
 * A session as Gemini CLI 0.61 recorded it (~/.gemini/tmp/<slug>/chats/session-*.jsonl, long texts
 * cut): a Gen with one run_shell_command call, then a resumed Repair with another. Each result is in
 * its model message's toolCalls[].result and again in a user message of its own (lines 8 and 19); the
 * resume wrote the loaded history in a `$set` with the result twice more (the regenerated
 * `<id>_response` message and the recorded one).
 */
const RESULT_1 = { functionResponse: { id: 'run_shell_command_1', name: 'run_shell_command', response: { output: 'Output: (empty)' } } };
const RESULT_2 = { functionResponse: { id: 'run_shell_command_2', name: 'run_shell_command', response: { output: 'Output: (empty)' } } };
const CALL_1 = { id: 'run_shell_command_1', name: 'run_shell_command', args: { command: 'printf x > hello.py' }, result: [RESULT_1], status: 'success' };
const CALL_2 = { id: 'run_shell_command_2', name: 'run_shell_command', args: { command: 'echo y >> hello.py' }, result: [RESULT_2], status: 'success' };
const CONTEXT = { id: 'ctx', type: 'user', content: [{ text: '<session_context>...</session_context>' }] };
const GEN_PROMPT = { id: 'u1', type: 'user', content: [{ text: 'Write hello.py' }] };
const SESSION = [
  { sessionId: '5ef1b6ea', projectHash: 'fc4e', startTime: '2026-12-02T15:41:57.427Z', lastUpdated: '2026-12-02T15:41:57.427Z', kind: 'main' },
  { $set: { messages: [CONTEXT] } },
  GEN_PROMPT,
  { $set: { lastUpdated: '2026-12-02T15:41:57.517Z' } },
  { id: 'g1', type: 'gemini', content: '', model: 'gemini-2.5-pro' },
  { $set: { lastUpdated: '2026-12-02T15:41:58.152Z' } },
  { id: 'g1', type: 'gemini', content: '', model: 'gemini-2.5-pro', toolCalls: [CALL_1] },
  { id: 'r1', type: 'user', content: [RESULT_1] },
  { id: 'g2', type: 'gemini', content: 'Wrote hello.py.', model: 'gemini-2.5-pro' },
  { $set: { sessionId: '5ef1b6ea' } },
  {
    $set: {
      messages: [
        CONTEXT,
        GEN_PROMPT,
        { id: 'g1', type: 'gemini', content: [{ functionCall: { id: 'run_shell_command_1', name: 'run_shell_command', args: CALL_1.args } }], toolCalls: [CALL_1] },
        { id: 'g1_response', type: 'user', content: [RESULT_1] },
        { id: 'r1', type: 'user', content: [RESULT_1] },
        { id: 'g2', type: 'gemini', content: [{ text: 'Wrote hello.py.' }] },
      ],
    },
  },
  { id: 'u2', type: 'user', content: [{ text: 'Repair hello.py' }] },
  { id: 'g3', type: 'gemini', content: '', model: 'gemini-2.5-pro', toolCalls: [CALL_2] },
  { id: 'r2', type: 'user', content: [RESULT_2] },
  { id: 'g4', type: 'gemini', content: 'Repaired.', model: 'gemini-2.5-pro' },
  { $set: { lastUpdated: '2026-12-02T15:42:19.596Z' } },
];

describe("the gemini-cli preset's session repair before a resume", () => {
  let home: string;
  let chats: string;
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'gemini-home-'));
    chats = path.join(home, '.gemini/tmp/workspace/chats');
    fs.mkdirSync(chats, { recursive: true });
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  /** Runs the resume command's first part (the script) with `sh -c`, HOME the temporary one. */
  function repair(): void {
    const command = geminiCli.command({ ...CALL, resume: true, home });
    const script = command.slice(0, command.indexOf('2>/dev/null;'));
    execFileSync('sh', ['-c', script], { env: { ...process.env, HOME: home } });
  }

  it('drops the user messages that repeat results their model message holds, and nothing else', () => {
    const file = path.join(chats, 'session-2026-12-02T15-41-5ef1b6ea.jsonl');
    fs.writeFileSync(file, SESSION.map((record) => JSON.stringify(record)).join('\n') + '\n');
    repair();
    const expected = SESSION.filter((record: any) => record.id !== 'r1' && record.id !== 'r2').map((record: any) =>
      record.$set?.messages?.length > 1
        ? JSON.stringify({ $set: { messages: record.$set.messages.filter((m: any) => m.id !== 'g1_response' && m.id !== 'r1') } })
        : JSON.stringify(record),
    );
    expect(fs.readFileSync(file, 'utf8')).toBe(expected.join('\n') + '\n');
    expect(expected.join('\n')).not.toMatch(/"id":"r[12]"|g1_response/);
  });

  it('leaves a session without repeated results, and other files, as they are', () => {
    const clean = [SESSION[0], GEN_PROMPT, { id: 'g1', type: 'gemini', content: '', toolCalls: [{ ...CALL_1, result: undefined, status: 'cancelled' }] }, { id: 'r1', type: 'user', content: [RESULT_1] }];
    const text = clean.map((record) => JSON.stringify(record)).join('\n') + '\nnot json\n';
    fs.writeFileSync(path.join(chats, 'session-a.jsonl'), text);
    fs.writeFileSync(path.join(chats, 'notes.json'), JSON.stringify(SESSION));
    repair();
    expect(fs.readFileSync(path.join(chats, 'session-a.jsonl'), 'utf8')).toBe(text);
    expect(fs.readFileSync(path.join(chats, 'notes.json'), 'utf8')).toBe(JSON.stringify(SESSION));
  });

  it('does nothing, and fails nothing, where there is no session', () => {
    fs.rmSync(path.join(home, '.gemini'), { recursive: true });
    expect(() => repair()).not.toThrow();
    expect(() => execFileSync(process.execPath, ['-e', DEDUPE_SESSIONS, path.join(home, 'none')])).not.toThrow();
  });
});
