import { ActivityFailure, isCancellation, patched, proxyActivities } from '@temporalio/workflow';
import type { ReadinessActivities } from '../activities/readiness';
import type { ReadmeActivities } from '../activities/readme';
import { HEARTBEAT_TIMEOUT_S } from '../domain/activityTimeouts';
import type { CliSpec, OpenAISpec, PresetSpec } from '../domain/agentSpec';
import { DEFAULT_MAX_TURNS } from '../domain/toolLoopTurns';
import type { AnswerOutcome, PassResult, ReadmeRecord } from '../domain/readme';
import { expandReadmeStudy, type ReadmeInstanceInput, type ReadmeStudyInput } from '../domain/readmeStudy';
import type { ReadmeFileScore } from '../metrics/readme';
import { README_SESSION_NOTE } from '../readme/prompt';
import { capMessage } from '../text/excerpt';
import { QUEUES } from '../workers/queues';
import { harnessError } from './harnessError';
import { removeEvenIfCancelled } from './removeEvenIfCancelled';
import { configErrorOf, runProtocolStudy, type ProtocolCarry, type ProtocolStudySummary } from './protocolStudy';

const retry = { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 3 };
const STICKY_WAIT_S = 120;

const { recordReadme, recordReadmeStudy } = proxyActivities<ReadmeActivities>({ startToCloseTimeout: '1 minute', retry: { maximumInterval: '1m' } });
const { prepareReadmeInstance, oracleAnswer, replayAnswer } = proxyActivities<ReadmeActivities>({ startToCloseTimeout: '10 minutes', heartbeatTimeout: HEARTBEAT_TIMEOUT_S * 1000, retry });

function agentActivities(input: ReadmeInstanceInput) {
  const opts = { startToCloseTimeout: (input.agentTimeoutS + 300) * 1000, heartbeatTimeout: HEARTBEAT_TIMEOUT_S * 1000, retry };
  // A proxy's activities are looked up by name when called, so they cannot be spread into another object.
  const agent = proxyActivities<ReadmeActivities>(opts);
  return {
    openaiAnswer: agent.openaiAnswer,
    answerFromOutput: agent.answerFromOutput,
    // A cli agent's call is not retried: it may have spent tokens and changed things on the way.
    cliAnswer: proxyActivities<ReadmeActivities>({ ...opts, retry: { ...retry, maximumAttempts: 1 } }).cliAnswer,
    score: proxyActivities<ReadmeActivities>({ startToCloseTimeout: '30 minutes', heartbeatTimeout: HEARTBEAT_TIMEOUT_S * 1000, retry }).scoreReadmeAnswer,
    // Pass@1 includes building the image on a fresh machine; the script's own limit is in the input.
    pass: proxyActivities<ReadmeActivities>({ startToCloseTimeout: (input.pass.timeoutS + 1800) * 1000, heartbeatTimeout: HEARTBEAT_TIMEOUT_S * 1000, retry }).runSetupScript,
  };
}

/** An in-container agent's activities, on the worker that holds its container (the readiness session's). */
function onWorker(queue: string, input: ReadmeInstanceInput) {
  const long = { taskQueue: queue, heartbeatTimeout: HEARTBEAT_TIMEOUT_S * 1000, scheduleToStartTimeout: STICKY_WAIT_S * 1000, retry };
  return {
    main: proxyActivities<ReadinessActivities>({ ...long, startToCloseTimeout: '30 minutes' }),
    tool: proxyActivities<ReadinessActivities>({ ...long, startToCloseTimeout: (input.agentTimeoutS + 300) * 1000 }).toolCall,
    cli: proxyActivities<ReadinessActivities>({ ...long, startToCloseTimeout: (input.agentTimeoutS + 300) * 1000, retry: { ...retry, maximumAttempts: 1 } }).runCliAgent,
  };
}

const claimWorker = proxyActivities<ReadinessActivities>({ taskQueue: QUEUES.cpu, startToCloseTimeout: '1 minute', retry }).claimWorker;

/** The agent's answer for one README: recorded, the oracle's, one call, or a session in the repository's container. */
async function answer(input: ReadmeInstanceInput, prepared: { promptHash: string; goldHash: string }): Promise<AnswerOutcome> {
  const a = agentActivities(input);
  const agent = input.agent;
  if (agent.kind === 'oracle') return oracleAnswer({ goldHash: prepared.goldHash });
  if (agent.kind === 'replay') return replayAnswer({ path: agent.path, instance: input.instance });
  if (agent.kind === 'openai') {
    // Before this patch an openai agent answered with one chat completion whatever its tool_loop said.
    if (agent.tool_loop && patched(README_OPENAI_TOOL_LOOP)) return toolLoopAnswer(input, agent, prepared.promptHash);
    return a.openaiAnswer({ agent, promptHash: prepared.promptHash });
  }
  // A preset always works in the repository's container (agent mode); a cli agent where its spec says so.
  if (agent.kind !== 'cli' || agent.in_container) return sessionAnswer(input, agent, prepared.promptHash);
  return a.cliAnswer({ agent, promptHash: prepared.promptHash, timeoutS: input.agentTimeoutS });
}

export const README_OPENAI_TOOL_LOOP = 'readme-openai-tool-loop';

const NO_SOURCE: AnswerOutcome = { status: 'failed', problem: 'agent mode needs the repository, and this instance has no source', detected_errors: [], setup_script_hash: null, answer_hash: null, duration_s: null, tokens_in: null, tokens_out: null, cost_usd: null };

/**
 * Agent mode for an `openai` agent with tool_loop: in a container holding the repository, model turns
 * and tool calls (bash, read_file, write_file, finish), each its own activity and the conversation
 * stored step by step, as the readiness protocol drives them; finish's answer is the agent's answer.
 * Its budgets are the call's time limit (agentTimeoutS) and max_turns; past either it has no answer.
 */
async function toolLoopAnswer(input: ReadmeInstanceInput, agent: OpenAISpec, promptHash: string): Promise<AnswerOutcome> {
  if (!input.instance.source) return NO_SOURCE;
  const a = agentActivities(input);
  const queue = await claimWorker();
  const w = onWorker(queue, input);
  const opened = await w.main.openRepoContainer({ instanceId: input.instanceId, agent, repo: { source: input.instance.source }, memoryMb: input.memoryMb, cpus: input.cpus, limits: input.limits, protocol: 'readme' });
  try {
    const maxTurns = agent.max_turns ?? DEFAULT_MAX_TURNS;
    let conversation = await w.main.startConversation({ task: 'readme', promptHash });
    let turns = 0;
    let spentMs = 0;
    let tokensIn: number | null = null;
    let tokensOut: number | null = null;
    let answer: string | null = null;
    let failure: string | null = null;
    let timedOut = false;
    const outOfTime = () => spentMs / 1000 >= input.agentTimeoutS;
    loop: for (;;) {
      if (outOfTime()) {
        timedOut = true;
        break;
      }
      if (turns >= maxTurns) {
        failure = `the agent used its ${maxTurns} model turns (max_turns) without calling finish`;
        break;
      }
      const turn = await w.main.modelTurn({ agent, conversationHash: conversation, task: 'readme' });
      turns++;
      conversation = turn.conversationHash;
      spentMs += turn.durationMs;
      if (turn.tokensIn !== null) tokensIn = (tokensIn ?? 0) + turn.tokensIn;
      if (turn.tokensOut !== null) tokensOut = (tokensOut ?? 0) + turn.tokensOut;
      if (turn.calls.length === 0) {
        failure = `the model stopped without calling finish: ${turn.text ?? '(no text)'}`;
        break;
      }
      for (const call of turn.calls) {
        if (outOfTime()) {
          timedOut = true;
          break loop;
        }
        const r = await w.tool({ container: opened.container, conversationHash: conversation, callId: call.id, maxTimeoutS: Math.max(1, Math.ceil(input.agentTimeoutS - spentMs / 1000)), agent, task: 'readme' });
        conversation = r.conversationHash;
        spentMs += r.durationMs;
        if (r.report !== null) {
          answer = r.report;
          break loop;
        }
      }
    }
    const outputHash = await w.main.putText({ text: answer ?? failure ?? `stopped at the time limit of ${input.agentTimeoutS} s` });
    return await a.answerFromOutput({ outputHash, ...(failure ? { failure } : {}), exitCode: answer === null ? null : 0, timedOut, durationMs: spentMs, tokensIn, tokensOut, costUsd: null, timeoutS: input.agentTimeoutS });
  } finally {
    await removeEvenIfCancelled(() => w.main.removeSessionContainer({ container: opened.container }));
  }
}

/** Agent mode: the cli agent works inside a container holding the repository, and ends with the same answer. */
async function sessionAnswer(input: ReadmeInstanceInput, agent: CliSpec | PresetSpec, promptHash: string): Promise<AnswerOutcome> {
  const a = agentActivities(input);
  if (!input.instance.source) return NO_SOURCE;
  const queue = await claimWorker();
  const w = onWorker(queue, input);
  const opened = await w.main.openRepoContainer({ instanceId: input.instanceId, agent, repo: { source: input.instance.source }, memoryMb: input.memoryMb, cpus: input.cpus, limits: input.limits, protocol: 'readme' });
  try {
    const r = await w.cli({ container: opened.container, agent, promptHash, prompt: README_SESSION_NOTE, timeoutS: input.agentTimeoutS });
    // A preset's answer is its final message where it prints one apart from its log; the log stays with the step.
    const answered = await a.answerFromOutput({ outputHash: r.finalTextHash ?? r.outputHash, ...(r.failure ? { failure: r.failure } : {}), exitCode: r.exitCode, timedOut: r.timedOut, durationMs: r.durationMs, tokensIn: r.tokensIn, tokensOut: r.tokensOut, costUsd: r.costUsd, timeoutS: input.agentTimeoutS });
    return r.sandbox ? { ...answered, sandbox: r.sandbox } : answered;
  } finally {
    await removeEvenIfCancelled(() => w.main.removeSessionContainer({ container: opened.container }));
  }
}

const notRun = (reason: string | null): PassResult => ({ status: 'skipped', reason, exit_code: null, timed_out: false, missing_imports: null, missing: [], duration_s: null, log_excerpt: null });

/**
 * One README instance (EnConda-Bench's protocol): the agent reads the README and the repository's
 * listing and names the injected errors with fixes and a setup script; the diagnosis is scored against
 * the gold; the script runs against the repository at its pinned revision (Pass@1, EnvBench's
 * definition). A harness fault at any stage is recorded as such, with what was measured before it.
 */
export async function readmeInstanceWorkflow(input: ReadmeInstanceInput): Promise<{ instanceId: string; status: ReadmeRecord['status'] }> {
  const a = agentActivities(input);
  let gold: ReadmeRecord['gold'] = null;
  let outcome: AnswerOutcome | null = null;
  let score: ReadmeFileScore | null = null;
  let pass: PassResult | null = null;
  let error: ReadmeRecord['error'] = null;
  try {
    const prepared = await prepareReadmeInstance({ dataDir: input.dataDir, instance: input.instance });
    gold = prepared.gold;
    outcome = await answer(input, prepared);
    score = await a.score({ instance: input.instance.name, goldHash: prepared.goldHash, detected: outcome.status === 'answered' ? outcome.detected_errors : null, judge: input.judge });
    if (!input.pass.run) pass = notRun('Pass@1 is off in this study');
    else if (input.agent.kind === 'oracle') pass = notRun('the oracle writes no setup script');
    else if (!input.instance.source) pass = notRun('no repository source');
    else if (outcome.setup_script_hash === null) pass = { ...notRun(null), status: 'fail', reason: outcome.status === 'answered' ? 'the answer holds no setup script' : `no usable answer (${outcome.status})` };
    else {
      try {
        const r = await a.pass({ instanceId: input.instanceId, source: input.instance.source, scriptHash: outcome.setup_script_hash, timeoutS: input.pass.timeoutS, memoryMb: input.memoryMb, cpus: input.cpus, limits: input.limits });
        const { logHash, ...result } = r;
        pass = { ...result, log_hash: logHash };
      } catch (err) {
        if (isCancellation(err) || !(err instanceof ActivityFailure)) throw err;
        // Docker, the image or the index failed, not the script: the agent is not blamed, the fault is named.
        pass = { ...notRun(null), status: 'infra_error', reason: capMessage(err.cause?.message ?? err.message) };
        error = harnessError(err);
      }
    }
  } catch (err) {
    if (isCancellation(err)) throw err;
    error = harnessError(err);
  }
  const record = readmeRecordOf(input, { gold, answer: outcome, score, pass, error });
  await recordReadme({ instanceId: input.instanceId, record });
  return { instanceId: input.instanceId, status: record.status, ...configErrorOf(input.agent.name, record.error) };
}

/**
 * A README study on the study engine: every instance a child workflow, at most `concurrency` at a
 * time, with pause, resume, retry-errors and progress; past the history limit a fresh run takes over.
 */
export async function readmeStudyWorkflow(study: ReadmeStudyInput & { historyLimit?: number }, carry?: ProtocolCarry): Promise<ProtocolStudySummary> {
  return runProtocolStudy(study, carry, {
    record: () => recordReadmeStudy({ study }),
    instances: expandReadmeStudy(study),
    child: readmeInstanceWorkflow,
    recordFailure: (input, error) => recordReadme({ instanceId: input.instanceId, record: readmeRecordOf(input, { gold: null, answer: null, score: null, pass: null, error }) }),
  });
}

/** An instance's record from what was measured; `error`: a harness fault, and the record is `error`. */
function readmeRecordOf(
  input: ReadmeInstanceInput,
  m: { gold: ReadmeRecord['gold']; answer: AnswerOutcome | null; score: ReadmeFileScore | null; pass: PassResult | null; error: ReadmeRecord['error'] },
): ReadmeRecord {
  return {
    schema: 'envgap.readme/v1',
    study: input.study,
    instance_id: input.instanceId,
    agent: input.agent.name,
    agent_kind: input.agent.kind === 'cli' && input.agent.in_container ? 'cli-in-container' : input.agent.kind,
    instance: input.instance.name,
    repo_folder: input.instance.repoFolder,
    repository: input.instance.repository,
    trial: input.trial,
    status: m.error ? 'error' : 'completed',
    gold: m.gold,
    answer: m.answer,
    score: m.score as unknown as Record<string, unknown> | null,
    pass: m.pass,
    error: m.error,
  };
}
