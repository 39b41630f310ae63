import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeJudge } from '../../../src/cli/readmeScore';
import { scoreReadme } from '../../../src/metrics/readme';
import { openaiJudge, parseSimilarityAnswer } from '../../../src/agents/openaiJudge';

const KEY = 'sk-test-0123456789abcdef';
const gold = { error_type: 'E1', error_description: 'the package name is wrong', correction_candidates: [], golden_answer: 'pip install inflect' };

interface Seen {
  auth: string | undefined;
  body: { model: string; messages: { role: string; content: string }[] };
}
let server: http.Server;
let baseUrl: string;
const seen: Seen[] = [];
/** What the fake endpoint answers, by the predicted text the prompt carries. */
const replies: Record<string, { status?: number; content: string }> = {
  YES: { content: 'Sure: {"is_similar": true, "confidence": 0.9, "reason": "same package"}' },
  NO: { content: '{"is_similar": false, "confidence": 0.8, "reason": "different"}' },
  INVALID: { content: 'I think they are similar.' },
  WRONGSHAPE: { content: '{"similar": "yes"}' },
  FAIL: { status: 500, content: `internal error, key ${KEY}` },
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const body = JSON.parse(data) as Seen['body'];
      seen.push({ auth: req.headers.authorization, body });
      const key = Object.keys(replies).find((k) => body.messages[1].content.includes(`Text 1: ${k}\n`));
      const reply = replies[key ?? 'INVALID'];
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(reply.status ? reply.content : JSON.stringify({ choices: [{ message: { role: 'assistant', content: reply.content } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const judge = () => openaiJudge({ model: 'judge-model', baseUrl, apiKeyEnv: 'TEST_JUDGE_KEY', env: { TEST_JUDGE_KEY: KEY } });

test("a yes and a no, asked with upstream's question, the key from the named variable", async () => {
  const j = judge();
  expect(j.name).toBe('openai:judge-model');
  expect(await j.describesSame('YES', gold)).toBe(true);
  expect(await j.fixesSame('NO', gold)).toBe(false);
  const [d, f] = seen.slice(-2);
  expect(d.auth).toBe(`Bearer ${KEY}`);
  expect(d.body.model).toBe('judge-model');
  expect(d.body.messages[1].content).toContain('describe the same type of problem');
  expect(d.body.messages[1].content).toContain('Text 2: the package name is wrong');
  expect(f.body.messages[1].content).toContain('propose the same or equivalent');
  expect(f.body.messages[1].content).toContain('Text 2: pip install inflect');
});

test('an invalid answer is a clear error', async () => {
  await expect(judge().describesSame('INVALID', gold)).rejects.toThrow(/openai judge \(judge-model at .*\/v1\/chat\/completions, description\): the judge's answer holds no JSON object: "I think they are similar."/);
  await expect(judge().fixesSame('WRONGSHAPE', gold)).rejects.toThrow(/not a similarity verdict: field is_similar:/);
});

test('an HTTP error names the status and never shows the key; a missing key variable is named', async () => {
  const e = await judge().describesSame('FAIL', gold).then(() => null, (x: Error) => x);
  expect(e?.message).toMatch(/HTTP 500 from .*\/chat\/completions: internal error, key \[redacted:TEST_JUDGE_KEY\]/);
  expect(e?.message).not.toContain(KEY);
  expect(() => openaiJudge({ model: 'm', baseUrl, apiKeyEnv: 'NOT_SET_ANYWHERE', env: {} })).toThrow('the environment variable NOT_SET_ANYWHERE (--judge-api-key-env) is not set');
});

test('the answer parser', () => {
  expect(parseSimilarityAnswer('```json\n{"is_similar": true}\n```', 'w')).toBe(true);
  expect(() => parseSimilarityAnswer('{"is_similar": tru}', 'w')).toThrow(/^w: the judge's answer is not valid JSON/);
});

test('scoring with the openai judge (through the CLI\'s judge choice) names it and fills description accuracy', async () => {
  const j = makeJudge({ judge: 'openai', judgeModel: 'judge-model', judgeBaseUrl: baseUrl, judgeApiKeyEnv: 'TEST_JUDGE_KEY' }, { TEST_JUDGE_KEY: KEY });
  const f = await scoreReadme('x', { errors: [gold] }, [{ error_type: 'E1', error_description: 'YES', fix_suggestion: 'NO' }], j);
  expect(f.judge).toBe('openai:judge-model');
  expect(f.matches[0]).toMatchObject({ gold: 0, description_similar: true, fix_similar: false });
  expect(f.description_accuracy).toBe(1);
  expect(f.fix_accuracy).toBe(0);
});
