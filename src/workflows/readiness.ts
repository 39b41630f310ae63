import {
  ActivityFailure,
  ApplicationFailure,
  isCancellation,
  log,
  patched,
  proxyActivities,
  TimeoutFailure,
} from '@temporalio/workflow';
import type { ReadinessActivities } from '../activities/readiness';
import type { StepResult } from '../readiness/session';
import type { CliSpec, OpenAISpec, PresetSpec } from '../domain/agentSpec';
import { isPresetKind } from '../domain/presetKinds';
import { HEARTBEAT_TIMEOUT_S } from '../domain/activityTimeouts';
import type { ReadinessRecord, SessionOutcome, StageResult } from '../domain/readiness';
import { expandReadinessStudy, type ReadinessInstanceInput, type ReadinessStudyInput } from '../domain/readinessStudy';
import { auditReport } from '../readiness/audit';
import { buildReadinessRecord, nothingObserved, type ReadinessObservations } from '../readiness/record';
import { parseAgentReport } from '../readiness/report';
import { READINESS_PROMPT } from '../readiness/prompt';
import { skipped } from '../readiness/stages';
import { decideGpuStage } from '../readiness/gpuStage';
import { failedSetupPrecision, planSetupTrace } from '../readiness/setupTrace';
import { capMessage } from '../text/excerpt';
import { QUEUES } from '../workers/queues';
import { harnessError } from './harnessError';
import { removeEvenIfCancelled } from './removeEvenIfCancelled';
import { configErrorOf, runProtocolStudy, type ProtocolCarry, type ProtocolStudySummary } from './protocolStudy';

/** Patches (Temporal's patched → deprecatePatch → removed): studies begun before each change replay as they ran. */
export const READINESS_PREPARE_STAGE = 'readiness-prepare-stage';
export const READINESS_GENERIC_PROBES = 'readiness-generic-probes';
export const READINESS_SETUP_PRECISION = 'readiness-setup-precision';

const isPreset = (agent: { kind: string }): agent is PresetSpec => isPresetKind(agent.kind);

const retry = { initialInterval: '2s', backoffCoefficient: 2, maximumInterval: '1m', maximumAttempts: 3 };
/** How long an activity may wait for the worker that holds the instance's container; past it, that worker is taken as gone. */
const STICKY_WAIT_S = 120;

const { recordReadiness, recordReadinessStudy } = proxyActivities<ReadinessActivities>({ startToCloseTimeout: '1 minute', retry: { maximumInterval: '1m' } });

/** Which worker takes the instance: one polling the gpu queue for an instance whose GPU stages run, else any cpu worker. */
function claimOn(queue: string) {
  return proxyActivities<ReadinessActivities>({ taskQueue: queue, startToCloseTimeout: '1 minute', retry }).claimWorker;
}

/** The activities of one instance, all on the queue of the worker that holds its container. */
function onWorker(queue: string, input: ReadinessInstanceInput) {
  const long = { taskQueue: queue, heartbeatTimeout: HEARTBEAT_TIMEOUT_S * 1000, scheduleToStartTimeout: STICKY_WAIT_S * 1000, retry };
  const stageS = input.repo.stageTimeoutS + 300;
  return {
    main: proxyActivities<ReadinessActivities>({ ...long, startToCloseTimeout: '30 minutes' }),
    step: proxyActivities<ReadinessActivities>({ ...long, startToCloseTimeout: (input.budget.wallS + 300) * 1000 }).runSessionStep,
    // A whole cli session is one command: retried, it would start the agent over in a container it already changed.
    tool: proxyActivities<ReadinessActivities>({ ...long, startToCloseTimeout: (input.budget.wallS + 300) * 1000 }).toolCall,
    cli: proxyActivities<ReadinessActivities>({ ...long, startToCloseTimeout: (input.budget.wallS + 300) * 1000, retry: { ...retry, maximumAttempts: 1 } }).runCliAgent,
    probe: proxyActivities<ReadinessActivities>({ ...long, startToCloseTimeout: stageS * 1000 }),
    // Setup precision runs C1's entry and C2's check again, each within the stage's limit.
    setup: proxyActivities<ReadinessActivities>({ ...long, startToCloseTimeout: 2 * stageS * 1000 }).probeSetupPrecision,
  };
}

/** The session container an instance has open, and the queue of the worker that holds it. */
interface LiveSession {
  queue: string | null;
  container: string | null;
}

const workerGone = (err: unknown) => err instanceof ActivityFailure && err.cause instanceof TimeoutFailure && err.cause.timeoutType === 'SCHEDULE_TO_START';

/**
 * One readiness instance (ResearchEnvBench's protocol): the agent sets the repository up inside its
 * container; the container is frozen as an image; the repository's prepare stage (where it has one)
 * writes its assets; hidden probes test it level by level (C0 imports, C1 CPU, C2 cuda-check, C3 one
 * GPU, C4 several: the generic probe and the repository's command), and C5 audits the agent's report
 * against them.
 */
export async function readinessInstanceWorkflow(input: ReadinessInstanceInput): Promise<{ instanceId: string; status: ReadinessRecord['status'] }> {
  const obs: ReadinessObservations = nothingObserved();
  const live: LiveSession = { queue: null, container: null };
  // Removals run beside the probes and the record, off the instance's critical path; each is settled
  // at once (an unhandled rejection would fail the workflow task) and awaited before the instance ends.
  const removals: Promise<unknown>[] = [];
  let frozen: { on: ReturnType<typeof onWorker>; image: string } | null = null;
  const remove = (what: string, p: Promise<void>) => removals.push(p.catch((err: unknown) => log.warn(`removing ${what} failed (envgap cleanup removes it): ${String(err)}`)));
  try {
    const home = input.gpu.run ? QUEUES.gpu : QUEUES.cpu;
    let session: Awaited<ReturnType<typeof runSession>> | null = null;
    let restarted = 0;
    // A session whose worker (and container) is gone restarts on another worker, from a fresh container.
    while (!session) {
      const queue = await claimOn(home)();
      try {
        session = await runSession(input, queue, restarted, live);
      } catch (err) {
        if (!workerGone(err) || restarted >= 2) throw err;
        restarted++;
      }
    }
    const { queue, outcome, closed, trackedHash, container } = session;
    obs.session = closed.sandbox ? { ...outcome, sandbox: closed.sandbox } : outcome;
    const a = onWorker(queue, input);
    remove('the session container', a.main.removeSessionContainer({ container }));
    frozen = { on: a, image: closed.frozenImage };
    const parsed = parseAgentReport(closed.report);
    obs.report = parsed.report;
    obs.reportProblem = parsed.problem ? `${parsed.problem.category}: ${parsed.problem.message}` : null;
    obs.violations = closed.violations;

    const python = typeof parsed.report?.python_path === 'string' && parsed.report.python_path.startsWith('/') ? parsed.report.python_path : null;
    const probe = {
      instanceId: input.instanceId,
      frozenImage: closed.frozenImage,
      memoryMb: input.memoryMb,
      cpus: input.cpus,
      limits: input.limits,
      timeoutS: input.repo.stageTimeoutS,
      ...(input.gpuShare ? { gpuShare: true } : {}),
    };
    const gpus = input.gpu.run;
    // The repository's own commands: its scripts mounted, in the image its prepare stage made.
    const repoProbe = { ...probe, ...(input.repo.scripts ? { scripts: input.repo.scripts } : {}) };
    if (input.repo.prepare && patched(READINESS_PREPARE_STAGE)) {
      const { outputHash: _output, preparedImage, ...prepared } = await a.probe.prepareAssets({ ...repoProbe, command: input.repo.prepare, python });
      obs.prepare = prepared;
      if (preparedImage) repoProbe.frozenImage = preparedImage;
    }
    const entry = (stage: 'c1' | 'c3' | 'c4', support: 'cpu' | 'single_gpu' | 'multi_gpu', command: string | undefined): Promise<StageResult> | StageResult => {
      if (!input.repo.supports.includes(support)) return skipped('not_applicable');
      if (!command) return skipped('no_entry');
      if (obs.prepare && obs.prepare.status !== 'success') return skipped('prepare_failed');
      return a.probe.probeEntry({ ...repoProbe, stage, command, gpus: stage !== 'c1' && gpus, python });
    };
    obs.stages.c0 = await a.probe.probeImports({ ...probe, python, trackedHash });
    obs.stages.c1 = await entry('c1', 'cpu', input.repo.entry.cpu);
    const facts = await a.probe.probeFacts({ ...probe, python, gpus });
    obs.envSizeBytes = facts.envSizeBytes;
    obs.gpu = facts.gpu;
    const noGpu = input.gpu.run ? null : skipped(input.gpu.skipReason);
    obs.stages.c2 = noGpu ? { ...noGpu, observed: null } : await a.probe.probeCuda({ ...probe, python: python ?? '/usr/bin/python3', gpus });
    // A stage the repository does not support is not_applicable first: it leaves the denominator whatever the machine.
    const gpuStage = async (stage: 'c3' | 'c4', support: 'single_gpu' | 'multi_gpu', command: string | undefined, needs: number) => {
      if (!input.repo.supports.includes(support)) return skipped('not_applicable');
      if (noGpu) return noGpu;
      if ((facts.gpu?.count ?? 0) < needs) return skipped('insufficient_hardware');
      if (!patched(READINESS_GENERIC_PROBES)) return entry(stage, support, command);
      // The generic probe (a kernel on one GPU, an all-reduce over all) beside the repository's command.
      const { outputHash: _output, ...generic } = await a.probe.probeGeneric({ ...probe, stage, python, gpus });
      const own = command ? await entry(stage, support, command) : null;
      return decideGpuStage(generic, own);
    };
    obs.stages.c3 = await gpuStage('c3', 'single_gpu', input.repo.entry.single_gpu, 1);
    obs.stages.c4 = await gpuStage('c4', 'multi_gpu', input.repo.entry.multi_gpu, 2);
    if (patched(READINESS_SETUP_PRECISION)) {
      // What the agent installed against what C1's and C2's commands use; its fault is the block's, the pyramid stands.
      const plan = planSetupTrace(input.repo, obs.stages.c1);
      const entry = plan.c1 === null ? null : { command: plan.c1, image: repoProbe.frozenImage, ...(repoProbe.scripts ? { scripts: repoProbe.scripts } : {}) };
      try {
        obs.setupPrecision = { ...(await a.setup({ ...probe, python, agent: input.agent, entry, cudaCheck: plan.c2 })), untraced: plan.untraced, error: null };
      } catch (err) {
        if (isCancellation(err)) throw err;
        obs.setupPrecision = failedSetupPrecision(plan, harnessError(err));
      }
    }
    const c2 = obs.stages.c2;
    obs.stages.c5 = {
      ...auditReport({
        report: parsed.report,
        reportProblem: parsed.problem,
        facts: facts.facts,
        c2: { status: c2.status, cuda_available: c2.observed?.cuda_available ?? null, device_count: c2.observed?.device_count ?? null },
        c4: obs.stages.c4,
      }),
      duration_s: null,
      command: null,
    };
  } catch (err) {
    if (isCancellation(err)) {
      // The session's container and the frozen environment go with the cancelled instance.
      const { queue, container } = live;
      if (queue && container) await removeEvenIfCancelled(() => onWorker(queue, input).main.removeSessionContainer({ container })).catch(() => undefined);
      if (frozen) await removeEvenIfCancelled(() => frozen!.on.main.removeFrozenImage({ frozenImage: frozen!.image })).catch(() => undefined);
      throw err;
    }
    obs.error = harnessError(err);
  }
  if (frozen) remove('the frozen environment', frozen.on.main.removeFrozenImage({ frozenImage: frozen.image }));
  const record = buildReadinessRecord(input, obs);
  await recordReadiness({ instanceId: input.instanceId, record });
  await Promise.all(removals);
  return { instanceId: input.instanceId, status: record.status, ...configErrorOf(input.agent.name, record.error) };
}

/**
 * The agent's session on one worker: its container, then each recorded step as its own activity
 * (command, exit code and duration in the history; outputs as blobs), within the budgets; then the
 * container is frozen. A step retried after its worker died resumes in the surviving container.
 */
async function runSession(input: ReadinessInstanceInput, queue: string, restarted: number, live: LiveSession) {
  const a = onWorker(queue, input);
  if (input.agent.kind === 'cli' || isPreset(input.agent)) return runCliSession(input, input.agent, queue, restarted, live);
  if (input.agent.kind === 'openai') return runToolLoop(input, input.agent, queue, restarted, live);
  const recorded = await a.main.loadReplaySession({ path: input.agent.path, repo: input.repo.id, trial: input.trial });
  const opened = await a.main.openRepoContainer(input);
  Object.assign(live, { queue, container: opened.container });
  const steps: StepResult[] = [];
  // The session's wall time is its steps' own time, as the activities measured it.
  const spentS = () => steps.reduce((sum, r) => sum + r.durationMs, 0) / 1000;
  let resumed = 0;
  let budgetExceeded: SessionOutcome['budget_exceeded'] = null;
  for (let i = 0; i < recorded.count; i++) {
    const elapsedS = spentS();
    if (steps.length >= input.budget.steps) budgetExceeded = 'steps';
    else if (elapsedS >= input.budget.wallS) budgetExceeded = 'wall';
    if (budgetExceeded) break;
    const r = await a.step({ container: opened.container, stepsHash: recorded.stepsHash, index: i, timeoutS: Math.max(1, Math.ceil(input.budget.wallS - elapsedS)) });
    if (r.attempt > 1) resumed++;
    steps.push(r);
    if (r.timedOut && spentS() >= input.budget.wallS) {
      budgetExceeded = 'wall';
      break;
    }
  }
  const closed = await a.main.closeSession({ instanceId: input.instanceId, container: opened.container, trackedHash: opened.trackedHash, reportHash: budgetExceeded ? null : recorded.reportHash });
  const outcome: SessionOutcome = {
    status: budgetExceeded ? 'timeout' : 'finished',
    budget_exceeded: budgetExceeded,
    wall_s: spentS(),
    steps: steps.length,
    tokens_in: null,
    tokens_out: null,
    cost_usd: null,
    resumed,
    restarted,
    message: budgetExceeded ? `stopped: over the ${budgetExceeded} budget (${budgetExceeded === 'steps' ? `${input.budget.steps} steps` : `${input.budget.wallS} s`})` : null,
  };
  return { queue, outcome, closed, trackedHash: opened.trackedHash, container: opened.container };
}

/** A `cli` agent's session: its command once, inside the container, under the wall budget. */
async function runCliSession(input: ReadinessInstanceInput, agent: CliSpec | PresetSpec, queue: string, restarted: number, live: LiveSession) {
  const a = onWorker(queue, input);
  const opened = await a.main.openRepoContainer(input);
  Object.assign(live, { queue, container: opened.container });
  const r = await a.cli({ container: opened.container, agent, prompt: READINESS_PROMPT, timeoutS: input.budget.wallS });
  const overBudget = r.timedOut || (input.budget.tokens !== null && (r.tokensIn ?? 0) + (r.tokensOut ?? 0) > input.budget.tokens);
  const closed = await a.main.closeSession({ instanceId: input.instanceId, container: opened.container, trackedHash: opened.trackedHash, reportHash: null });
  const budgetExceeded: SessionOutcome['budget_exceeded'] = r.timedOut ? 'wall' : overBudget ? 'tokens' : null;
  const outcome: SessionOutcome = {
    status: budgetExceeded ? 'timeout' : r.exitCode === 0 ? 'finished' : 'failed',
    budget_exceeded: budgetExceeded,
    wall_s: r.durationMs / 1000,
    steps: 1,
    tokens_in: r.tokensIn,
    tokens_out: r.tokensOut,
    cost_usd: r.costUsd,
    resumed: 0,
    restarted,
    message: budgetExceeded ? `stopped: over the ${budgetExceeded} budget` : r.exitCode === 0 ? null : `the agent's command exited ${r.exitCode}: ${r.excerpt}`,
  };
  return { queue, outcome, closed, trackedHash: opened.trackedHash, container: opened.container };
}

/**
 * An `openai` agent's session: model turns and tool calls, each its own activity, until the model
 * calls finish or a budget (tool calls as steps, wall time, tokens) is spent. A turn without any tool
 * call ends the session as failed: the model stopped without a report.
 */
async function runToolLoop(input: ReadinessInstanceInput, agent: OpenAISpec, queue: string, restarted: number, live: LiveSession) {
  const a = onWorker(queue, input);
  const opened = await a.main.openRepoContainer(input);
  Object.assign(live, { queue, container: opened.container });
  let conversation = await a.main.startConversation();
  let steps = 0;
  let spentMs = 0;
  let tokensIn: number | null = null;
  let tokensOut: number | null = null;
  let report: string | null = null;
  let status: SessionOutcome['status'] = 'finished';
  let budgetExceeded: SessionOutcome['budget_exceeded'] = null;
  let message: string | null = null;
  const overBudget = (): SessionOutcome['budget_exceeded'] =>
    steps >= input.budget.steps ? 'steps' : spentMs / 1000 >= input.budget.wallS ? 'wall' : input.budget.tokens !== null && (tokensIn ?? 0) + (tokensOut ?? 0) > input.budget.tokens ? 'tokens' : null;
  loop: for (;;) {
    budgetExceeded = overBudget();
    if (budgetExceeded) break;
    const turn = await a.main.modelTurn({ agent, conversationHash: conversation });
    conversation = turn.conversationHash;
    spentMs += turn.durationMs;
    if (turn.tokensIn !== null) tokensIn = (tokensIn ?? 0) + turn.tokensIn;
    if (turn.tokensOut !== null) tokensOut = (tokensOut ?? 0) + turn.tokensOut;
    if (turn.calls.length === 0) {
      status = 'failed';
      message = `the model stopped without calling finish: ${turn.text ?? '(no text)'}`;
      break;
    }
    for (const call of turn.calls) {
      budgetExceeded = overBudget();
      if (budgetExceeded) break loop;
      const r = await a.tool({ container: opened.container, conversationHash: conversation, callId: call.id, maxTimeoutS: Math.max(1, Math.ceil(input.budget.wallS - spentMs / 1000)), agent });
      conversation = r.conversationHash;
      spentMs += r.durationMs;
      steps++;
      if (r.report !== null) {
        report = r.report;
        break loop;
      }
    }
  }
  if (budgetExceeded) {
    status = 'timeout';
    message = `stopped: over the ${budgetExceeded} budget`;
  }
  const reportHash = report === null ? null : await a.main.putText({ text: report });
  const closed = await a.main.closeSession({ instanceId: input.instanceId, container: opened.container, trackedHash: opened.trackedHash, reportHash });
  const outcome: SessionOutcome = { status, budget_exceeded: budgetExceeded, wall_s: spentMs / 1000, steps, tokens_in: tokensIn, tokens_out: tokensOut, cost_usd: null, resumed: 0, restarted, message };
  return { queue, outcome, closed, trackedHash: opened.trackedHash, container: opened.container };
}

/**
 * A readiness study on the study engine: every instance a child workflow, at most `concurrency` at a
 * time, with pause, resume, retry-errors and progress; past the history limit a fresh run takes over.
 */
export async function readinessStudyWorkflow(study: ReadinessStudyInput & { historyLimit?: number }, carry?: ProtocolCarry): Promise<ProtocolStudySummary> {
  return runProtocolStudy(study, carry, {
    record: () => recordReadinessStudy({ study }),
    instances: expandReadinessStudy(study),
    child: readinessInstanceWorkflow,
    recordFailure: (input, error) => recordReadiness({ instanceId: input.instanceId, record: buildReadinessRecord(input, { ...nothingObserved(), error }) }),
  });
}
