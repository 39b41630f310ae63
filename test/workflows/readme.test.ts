import { ApplicationFailure } from '@temporalio/activity';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { AnswerOutcome, PassResult, ReadmeRecord } from '../../src/domain/readme';
import type { ReadmeInstanceInput } from '../../src/domain/readmeStudy';
import type { readmeInstanceWorkflow } from '../../src/workflows/readme';
import { startTestWorkflowWorker, startWorkflowEnvironment, type TestWorker } from '../helpers/workflowEnv';

// The README instance workflow over fake activities (no Docker, no database): who is blamed for what.
let env: TestWorkflowEnvironment;
let worker: TestWorker;
const recorded: ReadmeRecord[] = [];
let pass: () => Promise<PassResult & { logHash: string | null }>;
let answer: AnswerOutcome;
const passCalls: unknown[] = [];

const answered: AnswerOutcome = { status: 'answered', problem: null, detected_errors: [{ error_type: 'E1', error_description: 'd', fix_suggestion: 'f' }], setup_script_hash: 'script', answer_hash: 'answer', duration_s: null, tokens_in: null, tokens_out: null, cost_usd: null };
const fileScore = { instance: 'x', judge: 'deterministic', type: { tp: 1, fp: 0, fn: 0 } };

beforeAll(async () => {
  env = await startWorkflowEnvironment();
  worker = await startTestWorkflowWorker(env, 'wf-readme', {
    prepareReadmeInstance: async () => ({ promptHash: 'prompt', goldHash: 'gold', gold: { errors: 1, types: ['E1'], level: 'level1' }, readmeFile: 'README.md' }),
    replayAnswer: async () => answer,
    scoreReadmeAnswer: async (input: { detected: unknown }) => ({ ...fileScore, detected: input.detected }),
    runSetupScript: async (input: unknown) => {
      passCalls.push(input);
      return pass();
    },
    recordReadme: async (input: { record: ReadmeRecord }) => {
      recorded.push(input.record);
    },
  });
}, 120000);
afterAll(async () => {
  await worker?.stop();
  await env?.teardown();
});

const input = (id: string): ReadmeInstanceInput => ({
  instanceId: id,
  study: 'wf',
  dataDir: '/data',
  agent: { kind: 'replay', name: 'recorded', path: '/answers' },
  instance: { name: 'jaraco_inflect_error_readme_1', repoFolder: 'error_gen_jaraco_inflect', repository: 'jaraco/inflect', source: { kind: 'archive', path: '/data/repos/jaraco__inflect.tar.gz' } },
  trial: 1,
  judge: { kind: 'deterministic' },
  pass: { run: true, timeoutS: 600 },
  agentTimeoutS: 600,
  memoryMb: 1024,
  cpus: 1,
});
const run = async (id: string) => {
  await env.client.workflow.execute<typeof readmeInstanceWorkflow>('readmeInstanceWorkflow', { workflowId: id, taskQueue: worker.taskQueue, args: [input(id)] });
  return recorded.find((r) => r.instance_id === id)!;
};

test('an infrastructure fault in Pass@1 is recorded as such (infra_error, a harness error), never as the agent\'s fail; the diagnosis stays', async () => {
  answer = answered;
  pass = async () => {
    throw ApplicationFailure.nonRetryable('the package index does not answer from the container (https://pypi.org/simple/)', 'IndexUnreachable');
  };
  const r = await run('wf/recorded/infra/1');
  expect(r).toMatchObject({ status: 'error', error: { kind: 'IndexUnreachable' }, pass: { status: 'infra_error' }, answer: { status: 'answered' }, score: { type: { tp: 1 } } });
  expect(r.pass!.reason).toContain('the package index does not answer');
});

test('the script\'s own failure is the agent\'s: fail, the instance completed', async () => {
  answer = answered;
  pass = async () => ({ status: 'fail', reason: 'script exited 1: ERROR: No matching distribution', exit_code: 1, timed_out: false, missing_imports: null, missing: [], duration_s: 3, log_excerpt: 'ERROR', logHash: 'log' });
  const r = await run('wf/recorded/fail/1');
  expect(r).toMatchObject({ status: 'completed', error: null, pass: { status: 'fail', exit_code: 1 } });
  expect(r.pass).toMatchObject({ log_hash: 'log' });
});

test('no usable answer: no predictions scored, Pass@1 a fail without running anything', async () => {
  answer = { ...answered, status: 'invalid_answer', problem: 'no ```json block', detected_errors: [], setup_script_hash: null };
  const before = passCalls.length;
  const r = await run('wf/recorded/invalid/1');
  expect(r).toMatchObject({ status: 'completed', answer: { status: 'invalid_answer' }, score: { detected: null }, pass: { status: 'fail', reason: 'no usable answer (invalid_answer)' } });
  expect(passCalls.length).toBe(before);
});
