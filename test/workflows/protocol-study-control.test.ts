import { ApplicationFailure } from '@temporalio/activity';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { ReadinessStudyInput } from '../../src/domain/readinessStudy';
import type { ReadmeStudyInput } from '../../src/domain/readmeStudy';
import type { StudyProgress } from '../../src/workflows/engine';
import type { readinessStudyWorkflow } from '../../src/workflows/readiness';
import type { readmeStudyWorkflow } from '../../src/workflows/readme';
import { QUEUES } from '../../src/workers/queues';
import { startTestWorkflowWorker, startWorkflowEnvironment, type TestWorker } from '../helpers/workflowEnv';
import { waitFor } from '../helpers/waitFor';

// The study engine under the README and readiness protocols, over fake activities: pause and resume,
// retry-errors inside a running study, continue-as-new with position and counts.
let env: TestWorkflowEnvironment;
let worker: TestWorker;

/** What each fake does for an instance; tests set it. */
let behave: (instance: string) => Promise<'ok' | 'fault'> = async () => 'ok';
const started: string[] = [];
const recorded: { id: string; status: string }[] = [];
const studiesRecorded: string[] = [];

async function step(instance: string): Promise<void> {
  started.push(instance);
  if ((await behave(instance)) === 'fault') throw ApplicationFailure.nonRetryable(`fake harness fault for ${instance}`, 'FakeFault');
}

const stage = { status: 'success', skip_reason: null, exit_code: 0, duration_s: 0, failure_category: null, error_excerpt: null, command: null };

beforeAll(async () => {
  env = await startWorkflowEnvironment();
  // Readiness instances claim a worker on the cpu queue: the fake worker polls it (this server is the file's own).
  worker = await startTestWorkflowWorker(env, QUEUES.cpu, {
    recordReadmeStudy: async (i: { study: { name: string } }) => void studiesRecorded.push(i.study.name),
    prepareReadmeInstance: async (i: { instance: { name: string } }) => {
      await step(i.instance.name);
      return { promptHash: 'p', goldHash: 'g', gold: { errors: 1, types: ['E1'], level: 'level1' }, readmeFile: 'README.md' };
    },
    oracleAnswer: async () => ({ status: 'answered', problem: null, detected_errors: [], setup_script_hash: null, answer_hash: null, duration_s: null, tokens_in: null, tokens_out: null, cost_usd: null }),
    scoreReadmeAnswer: async () => ({ instance: 'x', judge: 'deterministic', type: { tp: 0, fp: 0, fn: 0 } }),
    recordReadme: async (i: { instanceId: string; record: { status: string } }) => void recorded.push({ id: i.instanceId, status: i.record.status }),

    recordReadinessStudy: async (i: { study: { name: string } }) => void studiesRecorded.push(i.study.name),
    claimWorker: async () => QUEUES.cpu,
    loadReplaySession: async (i: { repo: string }) => {
      await step(i.repo);
      return { stepsHash: 's', count: 0, reportHash: null };
    },
    openRepoContainer: async () => ({ container: 'c', trackedHash: 't' }),
    closeSession: async () => ({ frozenImage: 'f', report: null, violations: [] }),
    removeSessionContainer: async () => undefined,
    probeImports: async () => stage,
    probeFacts: async () => ({ facts: null, envSizeBytes: 1, gpu: null }),
    probeSetupPrecision: async () => ({ python: null, base_image: null, kinds: null, installed: 0, installed_used: 0, precision: null, traced: [] }),
    removeFrozenImage: async () => undefined,
    recordReadiness: async (i: { instanceId: string; record: { status: string } }) => void recorded.push({ id: i.instanceId, status: i.record.status }),
  });
}, 120000);
afterAll(async () => {
  await worker?.stop();
  await env?.teardown();
});

const readmeStudy = (name: string, instances: string[], concurrency = 1): ReadmeStudyInput & { historyLimit?: number } => ({
  name,
  protocol: 'readme',
  dataDir: '/data',
  agents: [{ kind: 'oracle', name: 'oracle' }],
  instances: instances.map((n) => ({ name: n, repoFolder: `error_gen_${n}`, repository: null, source: null })),
  trials: 1,
  concurrency,
  judge: { kind: 'deterministic' },
  pass: { run: false, timeoutS: 600 },
  agentTimeoutS: 600,
  memoryMb: 1024,
  cpus: 1,
});

const readinessStudy = (name: string, repos: string[], concurrency = 1): ReadinessStudyInput & { historyLimit?: number } => ({
  name,
  protocol: 'readiness',
  agents: [{ kind: 'replay', name: 'rec', path: '/sessions' }],
  repos: repos.map((id) => ({ id, source: { kind: 'folder', path: `/repos/${id}` }, supports: [], entry: {}, stageTimeoutS: 60 })),
  trials: 1,
  concurrency,
  budget: { wallS: 600, steps: 10, tokens: null },
  gpu: { mode: 'off', workerAvailable: false },
  memoryMb: 1024,
  cpus: 1,
});

/** A gate an activity waits on until the test opens it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

const protocols = [
  { name: 'README', workflow: 'readmeStudyWorkflow', study: readmeStudy },
  { name: 'readiness', workflow: 'readinessStudyWorkflow', study: readinessStudy },
] as const;

describe.each(protocols)('a $name study on the study engine', ({ name, workflow, study: makeStudy }) => {
  const tag = name.toLowerCase();

  test('pause lets the running instance finish and starts no new one until resumed', async () => {
    const first = gate();
    let resumed = false;
    const lateStarts: string[] = [];
    behave = async (instance) => {
      if (instance === `${tag}-a`) await first.opened;
      else if (!resumed) lateStarts.push(instance);
      return 'ok';
    };
    const study = makeStudy(`${tag}-paused`, [`${tag}-a`, `${tag}-b`, `${tag}-c`]);
    const handle = await env.client.workflow.start(workflow, { workflowId: study.name, taskQueue: worker.taskQueue, args: [study] });
    await waitFor('the first instance to start', () => started.includes(`${tag}-a`));
    await handle.signal('pause');
    const paused = await handle.query<StudyProgress>('progress');
    expect(paused.paused).toBe(true);
    first.open();
    await waitFor('the first instance to be recorded', () => recorded.some((r) => r.id.startsWith(`${study.name}/`)));
    await waitFor('the study to report one done while paused', async () => (await handle.query<StudyProgress>('progress')).done === 1);
    resumed = true;
    await handle.signal('resume');
    const summary = (await handle.result()) as { done: number; counts: Record<string, number>; progress: StudyProgress };
    // Nothing started between the pause and the resume.
    expect(lateStarts).toEqual([]);
    expect(summary.progress).toMatchObject({ total: 3, done: 3, paused: false, counts: { completed: 3, error: 0 } });
    expect(summary.counts).toEqual({ completed: 3, error: 0 });
    expect(studiesRecorded).toContain(study.name);
  }, 60000);

  test('retry-errors runs an error instance again inside the running study; its error is no longer counted', async () => {
    const hold = gate();
    let faulty = true;
    behave = async (instance) => {
      if (instance === `${tag}-x`) return faulty ? 'fault' : 'ok';
      if (instance === `${tag}-y`) await hold.opened;
      return 'ok';
    };
    const study = makeStudy(`${tag}-retry`, [`${tag}-x`, `${tag}-y`]);
    const handle = await env.client.workflow.start(workflow, { workflowId: study.name, taskQueue: worker.taskQueue, args: [study] });
    const errorRecord = () => recorded.find((r) => r.id.startsWith(`${study.name}/`) && r.status === 'error');
    await waitFor('the faulty instance to be recorded as an error', () => errorRecord() !== undefined);
    const errorId = errorRecord()!.id;
    // A signal names instances that have ended: one still running (recording its error) is not queued again.
    await waitFor('the faulty instance to end', async () => (await handle.query<StudyProgress>('progress')).done === 1);
    faulty = false;
    await handle.signal('retryErrors', [errorId, `${study.name}/unknown/instance/1`]);
    await waitFor('the retry to be queued', async () => (await handle.query<StudyProgress>('progress')).retrying?.includes(errorId) ?? false);
    hold.open();
    const summary = (await handle.result()) as { progress: StudyProgress };
    expect(summary.progress).toMatchObject({ total: 2, done: 2, counts: { completed: 2, error: 0 }, retrying: [] });
    expect(recorded.filter((r) => r.id === errorId).map((r) => r.status)).toEqual(['error', 'completed']);
  }, 60000);

  test('a long study continues as new with its position and counts; the study is recorded once', async () => {
    behave = async (instance) => (instance.endsWith('-2') ? 'fault' : 'ok');
    const names = Array.from({ length: 6 }, (_, i) => `${tag}-can-${i}`);
    const study = { ...makeStudy(`${tag}-handover`, names, 2), historyLimit: 20 };
    const handle = await env.client.workflow.start(workflow, { workflowId: study.name, taskQueue: worker.taskQueue, args: [study] });
    const summary = (await handle.result()) as { progress: StudyProgress };
    expect(summary.progress).toMatchObject({ total: 6, done: 6, counts: { completed: 5, error: 1 } });
    const runs: string[] = [];
    for await (const w of env.client.workflow.list({ query: `WorkflowId = "${study.name}"` })) runs.push(w.runId);
    expect(runs.length).toBeGreaterThan(1);
    expect(studiesRecorded.filter((s) => s === study.name)).toHaveLength(1);
    for (const n of names) expect(started.filter((s) => s === n)).toHaveLength(1);
  }, 120000);
});
