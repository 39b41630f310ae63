import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createReadmeAnswerActivities } from '../../../src/activities/readme/answers';
import type { BlobStore } from '../../../src/db/blobs';
import type { CliSpec } from '../../../src/domain/agentSpec';
import type { AnswerOutcome } from '../../../src/domain/readme';

// The README answer activities answer as each kind's registry module says (src/agents/registry), and
// store what they got as blobs; an input error of the agent is a non-retryable failure.

function memoryBlobs() {
  const stored = new Map<string, string>();
  const put = async (text: string) => {
    const hash = `h${stored.size + 1}`;
    stored.set(hash, text);
    return hash;
  };
  const blobs = {
    put,
    putJson: (value: unknown) => put(JSON.stringify(value)),
    getText: async (hash: string) => stored.get(hash)!,
    getJson: async (hash: string) => JSON.parse(stored.get(hash)!),
  } as unknown as BlobStore;
  return { blobs, stored, put };
}

const answerText = '```json\n{"detected_errors": [{"error_type": "E1", "error_description": "wrong package", "fix_suggestion": "pip install inflect"}]}\n```\n```bash\npip install inflect\n```\n';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-readme-answers-'));
  fs.writeFileSync(path.join(dir, 'answer.txt'), answerText);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const cli = (command: string, env: string[] = []): CliSpec => ({ kind: 'cli', name: 'c', command, timeout_s: 60, env });

test('oracle: the gold as the answer, stored as JSON, no script', async () => {
  const { blobs, put, stored } = memoryBlobs();
  const goldHash = await put(JSON.stringify({ errors: [{ error_type: 'E2', error_description: 'typo', golden_answer: 'pip install x' }] }));
  const a = createReadmeAnswerActivities({ blobs });
  const out = (await new MockActivityEnvironment().run(a.oracleAnswer, { goldHash })) as AnswerOutcome;
  expect(out).toMatchObject({ status: 'answered', detected_errors: [{ error_type: 'E2', fix_suggestion: 'pip install x' }], setup_script_hash: null, duration_s: 0, tokens_in: null });
  expect(JSON.parse(stored.get(out.answer_hash!)!)).toEqual({ detected_errors: [{ error_type: 'E2', error_description: 'typo', fix_suggestion: 'pip install x' }], setup_script: null });
});

test('cli: the command reads its prompt file; its answer is parsed and its script stored', async () => {
  const { blobs, put, stored } = memoryBlobs();
  const promptHash = await put('the prompt');
  const a = createReadmeAnswerActivities({ blobs });
  const out = (await new MockActivityEnvironment().run(a.cliAnswer, { agent: cli(`grep -q 'the prompt' {prompt_file} && cat ${dir}/answer.txt`), promptHash, timeoutS: 60 })) as AnswerOutcome;
  expect(out).toMatchObject({ status: 'answered', problem: null, detected_errors: [{ error_type: 'E1' }] });
  expect(stored.get(out.setup_script_hash!)!.trim()).toBe('pip install inflect');
  expect(stored.get(out.answer_hash!)).toBe(answerText);
});

test('cli: a failed command is no answer, its output kept', async () => {
  const { blobs, put, stored } = memoryBlobs();
  const a = createReadmeAnswerActivities({ blobs });
  const out = (await new MockActivityEnvironment().run(a.cliAnswer, { agent: cli('echo trying; exit 3'), promptHash: await put('p'), timeoutS: 60 })) as AnswerOutcome;
  expect(out).toMatchObject({ status: 'failed', problem: "the agent's command exited 3", setup_script_hash: null });
  expect(stored.get(out.answer_hash!)).toBe('trying\n');
});

test('an unset variable the cli spec names, or a replay folder that is not there, is a non-retryable AgentInputError', async () => {
  const { blobs, put } = memoryBlobs();
  const a = createReadmeAnswerActivities({ blobs });
  const unset = await new MockActivityEnvironment().run(a.cliAnswer, { agent: cli('true', ['ENVGAP_TEST_NEVER_SET']), promptHash: await put('p'), timeoutS: 60 }).catch((e: unknown) => e);
  expect(unset).toBeInstanceOf(ApplicationFailure);
  expect(unset).toMatchObject({ type: 'AgentInputError', nonRetryable: true, message: 'cli agent "c": ENVGAP_TEST_NEVER_SET not set in the worker\'s environment' });
  const instance = { name: 'x', repoFolder: 'error_gen_x', repository: null, source: null };
  const replay = await new MockActivityEnvironment().run(a.replayAnswer, { path: path.join(dir, 'no-such-folder'), instance }).catch((e: unknown) => e);
  expect(replay).toMatchObject({ type: 'AgentInputError', nonRetryable: true });
  expect((replay as Error).message).toMatch(/^replay agent: /);
});
