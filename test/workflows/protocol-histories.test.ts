import { ApplicationFailure, Context } from '@temporalio/activity';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ReadinessRecord } from '../../src/domain/readiness';
import { ReadinessRecord as ReadinessRecordSchema } from '../../src/domain/readiness';
import type { AnswerOutcome, DetectedError, GoldAnswer, ReadmeRecord } from '../../src/domain/readme';
import { ReadmeRecord as ReadmeRecordSchema } from '../../src/domain/readme';
import { expandReadinessStudy, type ReadinessStudyInput } from '../../src/domain/readinessStudy';
import { expandReadmeStudy, type ReadmeStudyInput } from '../../src/domain/readmeStudy';
import { PROTOCOL_LIMIT_DEFAULTS } from '../../src/domain/sandboxLimits';
import { deterministicJudge } from '../../src/metrics/readme/deterministicJudge';
import { scoreReadme } from '../../src/metrics/readme/scoreReadme';
import type { StudyProgress } from '../../src/workflows/engine';
import type { ProtocolStudySummary } from '../../src/workflows/protocolStudy';
import { QUEUES } from '../../src/workers/queues';
import { waitFor } from '../helpers/waitFor';
import { startTestWorkflowWorker, startWorkflowEnvironment, type TestWorker } from '../helpers/workflowEnv';

// The README and readiness protocols' workflows end to end over fake activities, in the scenarios
// their committed histories must cover: every agent path (replay, cli, cli in the repository's
// container, openai, oracle; readiness: replay, cli, openai's tool loop), a harness fault recorded as an
// error, a study paused and resumed while an instance runs, a study handed over to fresh runs
// (continue-as-new), and an instance cancelled while its activity runs (the study counts it as an error
// and goes on). Each scenario's outcome is asserted on every run.
//
// ENVGAP_RECORD_HISTORIES=SET also writes every history these studies produced (each study run of the
// continue-as-new chain, each instance) to test/fixtures/histories/readme-SET/ and readiness-SET/
// (test/replay/history-replay.test.ts replays them): `<study>.json` for a study's first run,
// `<study>.runN.json` for its Nth, `<id with / as _>.json` for an instance.
let env: TestWorkflowEnvironment;
let worker: TestWorker;

/** Every fake's calls, by activity name, in order. */
const calls = new Map<string, unknown[]>();
const count = (name: string) => calls.get(name)?.length ?? 0;
/** Records the fakes were given that their schema refuses (the real record activities parse them). */
const problems: string[] = [];
const readmeRecords = new Map<string, ReadmeRecord>();
const readinessRecords = new Map<string, ReadinessRecord>();

/** A gate an activity waits on until the test opens it; `entered` once the activity waits there. */
interface Gate {
  entered: boolean;
  opened: Promise<void>;
  open(): void;
}
const gates = new Map<string, Gate>();
function gate(key: string): Gate {
  let open!: () => void;
  const g: Gate = { entered: false, opened: new Promise<void>((r) => (open = r)), open: () => open() };
  gates.set(key, g);
  return g;
}
async function pass(key: string): Promise<void> {
  const g = gates.get(key);
  if (!g) return;
  g.entered = true;
  await g.opened;
}

/** Instance ids whose session activity waits until it is cancelled; the test sees them in `holding`. */
const holds = new Set<string>();
const holding = new Set<string>();
async function untilCancelled(instanceId: string): Promise<never> {
  const ctx = Context.current();
  const beat = setInterval(() => ctx.heartbeat(), 50);
  holding.add(instanceId);
  try {
    await ctx.cancelled;
  } finally {
    clearInterval(beat);
  }
  throw new Error('cancelled without a cancellation');
}

/** Harness faults by instance id: the activity that fails, and how. */
const faults = new Map<string, string>();
function faultFor(activity: string, instanceId: string): void {
  if (faults.get(instanceId) === activity) throw ApplicationFailure.nonRetryable(`${activity} failed for ${instanceId}: the container did not start (no space left on device)`, 'HarnessFault');
}

/** Every fake under its activity's name, its calls kept. */
function fakes(impls: Record<string, (input: any) => unknown>): Record<string, (input: any) => Promise<unknown>> {
  return Object.fromEntries(
    Object.entries(impls).map(([name, fn]) => [
      name,
      async (input: any) => {
        if (!calls.has(name)) calls.set(name, []);
        calls.get(name)!.push(input);
        return fn(input);
      },
    ]),
  );
}

// --- the fakes: plausible shapes of what the real activities return -------------------------------

const GOLD: GoldAnswer = {
  level: 'level1',
  errors: [
    { error_type: 'E1', error_description: 'the README installs a package that does not exist', correction_candidates: [], golden_answer: 'pip install requests' },
    { error_type: 'E4', error_description: 'the Python version is wrong', correction_candidates: [], golden_answer: 'python 3.10' },
  ],
};
const detected: DetectedError[] = [{ error_type: 'E1', error_description: 'a missing package', fix_suggestion: 'pip install requests' }];
const answered = (who: string, extra: Partial<AnswerOutcome> = {}): AnswerOutcome => ({
  status: 'answered',
  problem: null,
  detected_errors: detected,
  setup_script_hash: `script:${who}`,
  answer_hash: `answer:${who}`,
  duration_s: 1.5,
  tokens_in: null,
  tokens_out: null,
  cost_usd: null,
  ...extra,
});
/** The instance a README prompt is for (prepareReadmeInstance names it in the hash). */
const promptOf = (promptHash: string) => promptHash.replace(/^prompt:/, '');
const stage = (command: string | null = null) => ({ status: 'success' as const, skip_reason: null, failure_category: null, exit_code: 0, error_excerpt: null, duration_s: 0.4, command });
const REPORT = JSON.stringify({ python_path: '/usr/bin/python3', python_version: '3.11', torch_version: null, cuda_available: false, gpu_count: 0, ddp_expected_ok: null, env_tool: 'pip', env_name: null, notes: 'installed requirements.txt' });
const containers = new Map<string, string>();
const instanceOf = (container: string) => containers.get(container) ?? container;
const step = (index: number, command: string, container: string) => ({ index, kind: 'command' as const, command, exitCode: 0, timedOut: false, durationMs: 800, outputHash: `out:${container}:${index}`, excerpt: 'ok', attempt: 1, limit: null });

const activities = fakes({
  // README
  recordReadmeStudy: () => undefined,
  prepareReadmeInstance: (i: { instance: { name: string } }) => ({ promptHash: `prompt:${i.instance.name}`, goldHash: `gold:${i.instance.name}`, gold: { errors: 2, types: ['E1', 'E4'], level: 'level1' }, readmeFile: 'README.md' }),
  oracleAnswer: () => ({ ...answered('oracle'), setup_script_hash: null, detected_errors: GOLD.errors.map((e) => ({ error_type: e.error_type, error_description: e.error_description, fix_suggestion: e.golden_answer })) }),
  replayAnswer: async (i: { instance: { name: string } }) => {
    await pass(`replayAnswer:${i.instance.name}`);
    return answered(`replay:${i.instance.name}`, { duration_s: null });
  },
  openaiAnswer: (i: { promptHash: string }) => answered(`openai:${promptOf(i.promptHash)}`, { tokens_in: 1200, tokens_out: 300, cost_usd: 0.002 }),
  cliAnswer: (i: { promptHash: string }) => answered(`cli:${promptOf(i.promptHash)}`, { tokens_in: 900, tokens_out: 250, cost_usd: 0.001 }),
  answerFromOutput: (i: { outputHash: string; durationMs: number; tokensIn: number | null; tokensOut: number | null; costUsd: number | null }) =>
    answered(`box:${i.outputHash}`, { answer_hash: i.outputHash, duration_s: i.durationMs / 1000, tokens_in: i.tokensIn, tokens_out: i.tokensOut, cost_usd: i.costUsd }),
  scoreReadmeAnswer: (i: { instance: string; detected: DetectedError[] | null }) => scoreReadme(i.instance, GOLD, i.detected, deterministicJudge),
  runSetupScript: (i: { instanceId: string }) => {
    faultFor('runSetupScript', i.instanceId);
    return { status: 'pass', reason: null, exit_code: 0, timed_out: false, missing_imports: 0, missing: [], duration_s: 42, log_excerpt: 'Successfully installed requests', python: '/usr/bin/python3', logHash: `log:${i.instanceId}` };
  },
  recordReadme: (i: { instanceId: string; record: ReadmeRecord }) => {
    const parsed = ReadmeRecordSchema.safeParse(i.record);
    if (!parsed.success) problems.push(`${i.instanceId}: ${parsed.error.message}`);
    readmeRecords.set(i.instanceId, i.record);
  },

  // readiness, and the README's agents in the repository's container
  recordReadinessStudy: () => undefined,
  claimWorker: () => QUEUES.cpu,
  openRepoContainer: (i: { instanceId: string }) => {
    faultFor('openRepoContainer', i.instanceId);
    const container = `envgap-session-${i.instanceId.replace(/\//g, '-')}-1`;
    containers.set(container, i.instanceId);
    return { container, trackedHash: `tracked:${i.instanceId}` };
  },
  runCliAgent: async (i: { container: string; agent: { command: string } }) => {
    if (holds.has(instanceOf(i.container))) await untilCancelled(instanceOf(i.container));
    return { ...step(0, i.agent.command, i.container), durationMs: 5300, tokensIn: 4000, tokensOut: 700, costUsd: 0.03 };
  },
  removeSessionContainer: () => undefined,
  loadReplaySession: async (i: { repo: string; path: string }) => {
    await pass(`loadReplaySession:${i.repo}`);
    return { stepsHash: `steps:${i.path}:${i.repo}`, count: 2, reportHash: `report:${i.repo}` };
  },
  runSessionStep: async (i: { container: string; index: number }) => {
    if (holds.has(instanceOf(i.container))) await untilCancelled(instanceOf(i.container));
    return step(i.index, i.index === 0 ? 'pip install -r requirements.txt' : 'python -c "import numpy"', i.container);
  },
  closeSession: (i: { container: string }) => ({ frozenImage: `envgap/frozen:${instanceOf(i.container).replace(/\//g, '-')}`, report: REPORT, violations: [] }),
  startConversation: () => 'conversation:0',
  modelTurn: (i: { conversationHash: string }) => {
    const turn = Number(i.conversationHash.split(':').pop());
    const call = turn === 0 ? { id: 'call-1', name: 'bash', arguments: '{"command":"pip install -r requirements.txt"}' } : { id: 'call-2', name: 'finish', arguments: '{"report":{...}}' };
    return { conversationHash: `conversation:${turn + 1}`, calls: [call], text: null, tokensIn: 800, tokensOut: 60, durationMs: 900 };
  },
  toolCall: (i: { conversationHash: string; callId: string }) => {
    const finish = i.callId === 'call-2';
    return { conversationHash: i.conversationHash, name: finish ? 'finish' : 'bash', exitCode: 0, durationMs: 1200, excerpt: finish ? 'session finished' : 'Successfully installed numpy', report: finish ? REPORT : null, limit: null };
  },
  putText: () => 'report:tool-loop',
  probeImports: (i: { instanceId: string }) => {
    faultFor('probeImports', i.instanceId);
    return { ...stage('pyright'), total: 3, missing: [], missing_source: [] };
  },
  probeEntry: (i: { command: string }) => ({ ...stage(i.command), outputHash: 'out:entry' }),
  probeFacts: () => ({ facts: { executable: true, runs: true, python_version: '3.11.2', torch_version: null, torch_error: 'No module named torch', cuda_available: false, device_count: 0 }, envSizeBytes: 52_428_800, gpu: null }),
  probeSetupPrecision: () => ({ python: '/opt/venv/bin/python', base_image: 'envgap/readiness:x', kinds: null, installed: 1, installed_used: 1, precision: 1, traced: [{ stage: 'c1', command: 'python run.py', exit_code: 0, timed_out: false }] }),
  removeFrozenImage: () => undefined,
  recordReadiness: (i: { instanceId: string; record: ReadinessRecord }) => {
    const parsed = ReadinessRecordSchema.safeParse(i.record);
    if (!parsed.success) problems.push(`${i.instanceId}: ${parsed.error.message}`);
    readinessRecords.set(i.instanceId, i.record);
  },
});

beforeAll(async () => {
  env = await startWorkflowEnvironment();
  // Readiness instances and README agents in a container claim a worker on the cpu queue: this worker polls it.
  worker = await startTestWorkflowWorker(env, QUEUES.cpu, activities);
}, 120000);
afterAll(async () => {
  await worker?.stop();
  await env?.teardown();
});
afterEach(() => {
  expect(problems).toEqual([]);
});

// --- histories ----------------------------------------------------------------------------------

interface JsonEvent {
  eventType: string;
  [attributes: string]: unknown;
}
interface JsonHistory {
  events: JsonEvent[];
}
const fileName = (id: string) => id.replace(/\//g, '_');

/** A study's runs, first to last (each run's last event names the next), and its instances' histories, as JSON. */
async function histories(studyId: string, firstRunId: string, instanceIds: string[]): Promise<{ runs: JsonHistory[]; files: Map<string, string> }> {
  const files = new Map<string, string>();
  const runs: JsonHistory[] = [];
  for (let runId: string | undefined = firstRunId; runId; ) {
    const json = historyToJSON(await env.client.workflow.getHandle(studyId, runId).fetchHistory());
    const history = JSON.parse(json) as JsonHistory;
    runs.push(history);
    files.set(runs.length === 1 ? fileName(studyId) : `${fileName(studyId)}.run${runs.length}`, json);
    const last = history.events[history.events.length - 1] as { workflowExecutionContinuedAsNewEventAttributes?: { newExecutionRunId?: string } };
    runId = last.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
  }
  for (const id of instanceIds) files.set(fileName(id), historyToJSON(await env.client.workflow.getHandle(id).fetchHistory()));
  return { runs, files };
}

/** With ENVGAP_RECORD_HISTORIES=SET: the files under test/fixtures/histories/<protocol>-SET/. */
function save(protocol: 'readme' | 'readiness', files: Map<string, string>): void {
  const set = process.env.ENVGAP_RECORD_HISTORIES;
  if (!set) return;
  const dir = path.resolve(__dirname, '../fixtures/histories', `${protocol}-${set}`);
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, json] of files) fs.writeFileSync(path.join(dir, `${name}.json`), json);
  const events = [...files.values()].reduce((n, j) => n + (JSON.parse(j) as JsonHistory).events.length, 0);
  process.stdout.write(`recorded ${files.size} histories (${events} events) in ${path.relative(process.cwd(), dir)}\n`);
}

const types = (runs: JsonHistory[]) => runs.flatMap((h) => h.events.map((e) => e.eventType));
const signalName = (e: JsonEvent) => (e.workflowExecutionSignaledEventAttributes as { signalName?: string } | undefined)?.signalName;

/** No instance started between the study's pause and resume signals, over all its runs. */
function startsWhilePaused(runs: JsonHistory[]): number {
  const events = runs.flatMap((h) => h.events);
  const paused = events.findIndex((e) => signalName(e) === 'pause');
  const resumed = events.findIndex((e) => signalName(e) === 'resume');
  expect(paused).toBeGreaterThan(-1);
  expect(resumed).toBeGreaterThan(paused);
  return events.slice(paused, resumed).filter((e) => e.eventType === 'EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED').length;
}

const progress = (id: string) => env.client.workflow.getHandle(id).query<StudyProgress>('progress');

/**
 * Starts a study whose first two instances (one per lane) wait at gates, pauses it while they run,
 * lets them finish, checks that nothing starts while it is paused, then resumes it to the end.
 */
async function pauseAndResume(workflow: string, study: { name: string }, firstTwo: [string, string], starts: () => number) {
  const gated = firstTwo.map((key) => gate(key));
  const before = starts();
  const handle = await env.client.workflow.start(workflow, { workflowId: study.name, taskQueue: worker.taskQueue, args: [study] });
  await waitFor('both lanes\' first instances to be running', () => gated.every((g) => g.entered));
  expect(starts() - before).toBe(2);
  await handle.signal('pause');
  expect(await progress(study.name)).toMatchObject({ paused: true, done: 0, running: expect.arrayContaining([expect.any(String), expect.any(String)]) });
  for (const g of gated) g.open();
  await waitFor('the running instances to finish while paused', async () => {
    const p = await progress(study.name);
    return p.running.length === 0 && p.done === 2;
  });
  expect(await progress(study.name)).toMatchObject({ paused: true, done: 2 });
  expect(starts() - before).toBe(2);
  await handle.signal('resume');
  const summary = (await handle.result()) as ProtocolStudySummary;
  return { summary, firstRunId: handle.firstExecutionRunId };
}

/** Starts a study, cancels one instance's child workflow while its activity holds, and waits for the study. */
async function cancelOne(workflow: string, study: { name: string }, victim: string) {
  holds.add(victim);
  const handle = await env.client.workflow.start(workflow, { workflowId: study.name, taskQueue: worker.taskQueue, args: [study] });
  await waitFor(`${victim}'s activity to run`, () => holding.has(victim));
  await env.client.workflow.getHandle(victim).cancel();
  const summary = (await handle.result()) as ProtocolStudySummary;
  const described = await env.client.workflow.getHandle(victim).describe();
  return { summary, firstRunId: handle.firstExecutionRunId, victimStatus: described.status.name };
}

// --- README -------------------------------------------------------------------------------------

const README_AGENTS: ReadmeStudyInput['agents'] = [
  { kind: 'replay', name: 'rec', path: '/data/answers/rec' },
  { kind: 'cli', name: 'cli', command: 'my-agent --prompt {prompt_file}', timeout_s: 600, env: [] },
  { kind: 'cli', name: 'box', command: 'claude -p "$(cat {prompt_file})"', timeout_s: 600, env: ['ANTHROPIC_API_KEY'], install: 'npm install -g @anthropic-ai/claude-code', in_container: true },
  { kind: 'openai', name: 'gpt', base_url: 'http://127.0.0.1:9/v1', model: 'gpt-4o-mini', api_key_env: 'OPENAI_API_KEY', timeout_s: 600 },
  { kind: 'openai', name: 'loop', base_url: 'http://127.0.0.1:9/v1', model: 'gpt-4o-mini', api_key_env: 'OPENAI_API_KEY', timeout_s: 600, tool_loop: true },
  { kind: 'oracle', name: 'oracle' },
];
const readmeStudy = (name: string, agents: ReadmeStudyInput['agents'], instances: string[], concurrency: number, historyLimit?: number): ReadmeStudyInput & { historyLimit?: number } => ({
  name,
  protocol: 'readme',
  dataDir: '/data/enconda',
  agents,
  instances: instances.map((n) => ({ name: `${n}_error_readme_1`, repoFolder: `error_gen_${n}`, repository: n.replace('_', '/'), source: { kind: 'archive', path: `/data/enconda/repos/${n}.tar.gz` } })),
  trials: 1,
  concurrency,
  judge: { kind: 'deterministic' },
  pass: { run: true, timeoutS: 600 },
  agentTimeoutS: 600,
  memoryMb: PROTOCOL_LIMIT_DEFAULTS.readme.memory_mb,
  cpus: PROTOCOL_LIMIT_DEFAULTS.readme.cpus,
  limits: PROTOCOL_LIMIT_DEFAULTS.readme,
  ...(historyLimit ? { historyLimit } : {}),
});

describe('README studies', () => {
  test('every agent path, a harness fault, paused and resumed while running, handed over to fresh runs', async () => {
    const study = readmeStudy('readme-engine', README_AGENTS, ['jaraco_inflect', 'psf_requests'], 2, 30);
    const ids = expandReadmeStudy(study).map((i) => i.instanceId);
    const id = (agent: string, repo: string) => `readme-engine/${agent}/${repo}_error_readme_1/1`;
    faults.set(id('gpt', 'psf_requests'), 'runSetupScript');
    const { summary, firstRunId } = await pauseAndResume('readmeStudyWorkflow', study, ['replayAnswer:jaraco_inflect_error_readme_1', 'replayAnswer:psf_requests_error_readme_1'], () => count('prepareReadmeInstance'));

    expect(summary.progress).toMatchObject({ total: 12, done: 12, paused: false, running: [], counts: { completed: 11, error: 1 } });
    expect([...readmeRecords.keys()].filter((k) => k.startsWith('readme-engine/')).sort()).toEqual([...ids].sort());
    const rec = (agent: string, repo = 'jaraco_inflect') => readmeRecords.get(id(agent, repo))!;
    expect(rec('rec')).toMatchObject({ status: 'completed', agent_kind: 'replay', answer: { status: 'answered' }, pass: { status: 'pass' }, score: { type: { tp: 1, fp: 0, fn: 1 } } });
    expect(rec('cli')).toMatchObject({ status: 'completed', agent_kind: 'cli', answer: { tokens_in: 900 }, pass: { status: 'pass' } });
    expect(rec('box')).toMatchObject({ status: 'completed', agent_kind: 'cli-in-container', answer: { status: 'answered', tokens_in: 4000, duration_s: 5.3 }, pass: { status: 'pass' } });
    expect(rec('gpt')).toMatchObject({ status: 'completed', agent_kind: 'openai', answer: { tokens_in: 1200 }, pass: { status: 'pass' } });
    // The openai tool loop in the repository's container: two turns (bash, then finish), each step its own activity.
    expect(rec('loop')).toMatchObject({ status: 'completed', agent_kind: 'openai', answer: { status: 'answered', tokens_in: 1600, tokens_out: 120 }, pass: { status: 'pass' } });
    expect(rec('oracle')).toMatchObject({ status: 'completed', agent_kind: 'oracle', score: { type: { tp: 2, fp: 0, fn: 0 } }, pass: { status: 'skipped' } });
    expect(rec('gpt', 'psf_requests')).toMatchObject({ status: 'error', error: { kind: 'HarnessFault' }, pass: { status: 'infra_error' }, answer: { status: 'answered' } });
    // The in-container agent's session: its container opened for the README protocol, and removed after its answer.
    const opened = (calls.get('openRepoContainer') as { instanceId: string; protocol?: string }[]).filter((c) => c.instanceId.startsWith('readme-engine/box/'));
    expect(opened.map((c) => c.protocol)).toEqual(['readme', 'readme']);
    expect((calls.get('removeSessionContainer') as { container: string }[]).filter((c) => instanceOf(c.container).startsWith('readme-engine/box/'))).toHaveLength(2);

    const { runs, files } = await histories(study.name, firstRunId, ids);
    expect(runs.length).toBeGreaterThan(1);
    expect(types(runs)).toContain('EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW');
    expect(startsWhilePaused(runs)).toBe(0);
    save('readme', files);
  }, 120000);

  test('an instance cancelled while its agent runs in its container: the study counts it as an error and goes on', async () => {
    const study = readmeStudy('readme-cancel', README_AGENTS.filter((a) => a.name === 'rec' || a.name === 'box'), ['jaraco_inflect', 'psf_requests'], 1);
    const ids = expandReadmeStudy(study).map((i) => i.instanceId);
    const victim = 'readme-cancel/box/jaraco_inflect_error_readme_1/1';
    const { summary, firstRunId, victimStatus } = await cancelOne('readmeStudyWorkflow', study, victim);

    expect(victimStatus).toBe('CANCELLED');
    expect(summary.progress).toMatchObject({ total: 4, done: 4, running: [], counts: { completed: 3, error: 1 } });
    // The study records the cancelled instance as a harness error (so retry-errors finds it) and goes on;
    // its session container is removed although the instance was cancelled.
    expect(readmeRecords.get(victim)).toMatchObject({ status: 'error', error: { kind: 'InstanceCancelled' } });
    expect((calls.get('removeSessionContainer') as { container: string }[]).map((c) => instanceOf(c.container))).toContain(victim);
    expect(readmeRecords.get('readme-cancel/box/psf_requests_error_readme_1/1')).toMatchObject({ status: 'completed', agent_kind: 'cli-in-container' });

    const { runs, files } = await histories(study.name, firstRunId, ids);
    expect(types(runs)).toContain('EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_CANCELED');
    save('readme', files);
  }, 120000);
});

// --- readiness ----------------------------------------------------------------------------------

const READINESS_AGENTS: ReadinessStudyInput['agents'] = [
  { kind: 'replay', name: 'rec', path: '/data/sessions/rec' },
  { kind: 'cli', name: 'cli', command: 'claude -p "$(cat {prompt_file})" --cwd {workspace}', timeout_s: 600, env: ['ANTHROPIC_API_KEY'], install: 'npm install -g @anthropic-ai/claude-code' },
  { kind: 'openai', name: 'gpt', base_url: 'http://127.0.0.1:9/v1', model: 'gpt-4o-mini', api_key_env: 'OPENAI_API_KEY', timeout_s: 600 },
];
const readinessStudy = (name: string, agents: ReadinessStudyInput['agents'], repos: string[], concurrency: number, historyLimit?: number): ReadinessStudyInput & { historyLimit?: number } => ({
  name,
  protocol: 'readiness',
  agents,
  repos: repos.map((id) => ({ id, source: { kind: 'folder', path: `/corpus/readiness/${id}` }, supports: ['cpu'], entry: { cpu: 'python train.py --epochs 1' }, stageTimeoutS: 300 })),
  trials: 1,
  concurrency,
  budget: { wallS: 1800, steps: 30, tokens: 200_000 },
  gpu: { mode: 'auto', workerAvailable: false },
  memoryMb: PROTOCOL_LIMIT_DEFAULTS.readiness.memory_mb,
  cpus: PROTOCOL_LIMIT_DEFAULTS.readiness.cpus,
  limits: PROTOCOL_LIMIT_DEFAULTS.readiness,
  ...(historyLimit ? { historyLimit } : {}),
});

describe('readiness studies', () => {
  test('every agent path, a harness fault, paused and resumed while running, handed over to fresh runs', async () => {
    const study = readinessStudy('readiness-engine', READINESS_AGENTS, ['numpy-stats', 'tiny-mlp'], 2, 30);
    const ids = expandReadinessStudy(study).map((i) => i.instanceId);
    const id = (agent: string, repo: string) => `readiness-engine/${agent}/${repo}/1`;
    faults.set(id('gpt', 'tiny-mlp'), 'probeImports');
    const { summary, firstRunId } = await pauseAndResume('readinessStudyWorkflow', study, ['loadReplaySession:numpy-stats', 'loadReplaySession:tiny-mlp'], () => count('claimWorker'));

    expect(summary.progress).toMatchObject({ total: 6, done: 6, paused: false, running: [], counts: { completed: 5, error: 1 } });
    expect([...readinessRecords.keys()].filter((k) => k.startsWith('readiness-engine/')).sort()).toEqual([...ids].sort());
    const rec = (agent: string, repo = 'numpy-stats') => readinessRecords.get(id(agent, repo))!;
    const pyramid = { c0: { status: 'success' }, c1: { status: 'success' }, c2: { status: 'skipped', skip_reason: 'no_gpu_worker' }, c3: { status: 'skipped' }, c4: { status: 'skipped' }, c5: { status: 'success' } };
    expect(rec('rec')).toMatchObject({ status: 'completed', session: { status: 'finished', steps: 2, wall_s: 1.6 }, stages: pyramid, report: { python_path: '/usr/bin/python3' } });
    expect(rec('cli')).toMatchObject({ status: 'completed', session: { status: 'finished', steps: 1, tokens_in: 4000 }, stages: pyramid });
    expect(rec('gpt')).toMatchObject({ status: 'completed', session: { status: 'finished', steps: 2, tokens_in: 1600, tokens_out: 120 }, stages: pyramid, report: { env_tool: 'pip' } });
    expect(rec('gpt', 'tiny-mlp')).toMatchObject({ status: 'error', error: { kind: 'HarnessFault' }, session: { status: 'finished' }, stages: { c0: { status: 'skipped', skip_reason: 'session_failed' } } });
    // Every session container and every frozen image is removed, the faulty instance's included.
    expect((calls.get('removeSessionContainer') as { container: string }[]).filter((c) => instanceOf(c.container).startsWith('readiness-engine/'))).toHaveLength(6);
    expect((calls.get('removeFrozenImage') as { frozenImage: string }[]).filter((c) => c.frozenImage.includes('readiness-engine'))).toHaveLength(6);

    const { runs, files } = await histories(study.name, firstRunId, ids);
    expect(runs.length).toBeGreaterThan(1);
    expect(types(runs)).toContain('EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW');
    expect(startsWhilePaused(runs)).toBe(0);
    save('readiness', files);
  }, 120000);

  test('an instance cancelled while its session step runs: the study counts it as an error and goes on', async () => {
    const study = readinessStudy('readiness-cancel', READINESS_AGENTS.filter((a) => a.name === 'rec'), ['numpy-stats', 'tiny-mlp', 'ddp-cifar'], 1);
    const ids = expandReadinessStudy(study).map((i) => i.instanceId);
    const victim = 'readiness-cancel/rec/tiny-mlp/1';
    const { summary, firstRunId, victimStatus } = await cancelOne('readinessStudyWorkflow', study, victim);

    expect(victimStatus).toBe('CANCELLED');
    expect(summary.progress).toMatchObject({ total: 3, done: 3, running: [], counts: { completed: 2, error: 1 } });
    expect(readinessRecords.get(victim)).toMatchObject({ status: 'error', error: { kind: 'InstanceCancelled' } });
    expect((calls.get('removeSessionContainer') as { container: string }[]).map((c) => instanceOf(c.container))).toContain(victim);
    expect(readinessRecords.get('readiness-cancel/rec/ddp-cifar/1')).toMatchObject({ status: 'completed' });

    const { runs, files } = await histories(study.name, firstRunId, ids);
    expect(types(runs)).toContain('EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_CANCELED');
    save('readiness', files);
  }, 120000);
});
