/**
 * Benchmark (not a test): a study's history stays bounded however many instances it has. One study of
 * N instances (default 2,000) runs the real study and instance workflows against a throw-away Temporal
 * dev server, with activities that answer at once (no agent, no container, no database): what is
 * measured is the workflows' history, nothing else. Prints, per run of the study's continue-as-new
 * chain, its events and bytes; and the events per instance.
 *   node dist/src/bench/studyHistory.js [N] [concurrency]      e.g. 2000 50
 * The instant activities are this benchmark's own; no study run by envgap can use them.
 */
import { Client } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createAnswerAndExecuteActivities } from '../activities/answerAndExecute';
import type { AgentCallResult, ExecuteInput, ExecutionOutcome } from '../activities/types';
import { DEFAULT_LIMITS, type StudyInput } from '../domain/study';
import { startEphemeralDevServer } from '../infra/temporal';
import { cachedWorkflowBundle } from '../workers/bundle';
import { STUDY_HISTORY_LIMIT, type studyWorkflow } from '../workflows/study';
import { runBench, throwAwayState } from './run';

/** Every activity the gap protocol's study and instances schedule, answering at once. */
const instantSteps = {
  async recordStudy() {},
  async prepareImage({ language }: { language: string }) {
    return { language, tag: `bench-${language}`, durationMs: 0 };
  },
  async callAgent(): Promise<AgentCallResult> {
    return { kind: 'project', filesHash: 'sha256:bench', fileCount: 1, tokensIn: null, tokensOut: null, costUsd: null, durationMs: 0 };
  },
  /** A success that brings D1 (where asked) and the layers along, as the real execution does. */
  async executeProject(input: ExecuteInput): Promise<ExecutionOutcome> {
    return {
      success: true, failedStep: null, errorClass: null, errorHash: null, exitCode: 0, artefacts: { log: 'sha256:log' }, durations: {}, runKind: 'program',
      layers: { installed: ['requests', 'urllib3'], traced: ['requests'], tracedDebianPackages: null, tracedBuild: null },
      ...(input.declare ? { declared: { names: ['requests'], manifestStatus: 'present' as const, problem: null, testScoped: [] } } : {}),
    };
  },
  async recordInstance() {},
};
const instantActivities = {
  ...instantSteps,
  ...createAnswerAndExecuteActivities({ answer: async () => ({ result: await instantSteps.callAgent(), stored: Promise.resolve() }), executeProject: instantSteps.executeProject }),
};

async function main() {
  const n = Number(process.argv[2] ?? 2000);
  const concurrency = Number(process.argv[3] ?? 50);
  const { settings, remove } = throwAwayState('envgap-bench-history-');
  const server = await startEphemeralDevServer(settings.temporalCli);
  const connection = await NativeConnection.connect({ address: server.address });
  const taskQueue = `bench-history-${process.pid}`;
  const worker = await Worker.create({ connection, taskQueue, workflowBundle: await cachedWorkflowBundle(settings.stateDir), activities: instantActivities, maxCachedWorkflows: 4 * concurrency });
  const running = worker.run();
  const client = new Client({ connection: server.connection });
  const name = `bench-history-${process.pid}`;
  const study: StudyInput = {
    name,
    agents: [{ kind: 'replay', name: 'replay', path: '/nonexistent' }],
    languages: ['python'],
    tasks: [{ id: 'p_04', title: 'trivial', domain: 'bench' }],
    trials: n,
    budget: 0,
    concurrency,
    limits: DEFAULT_LIMITS,
  };
  try {
    const started = Date.now();
    const summary = await client.workflow.execute<typeof studyWorkflow>('studyWorkflow', { workflowId: name, taskQueue, args: [study] });
    const seconds = (Date.now() - started) / 1000;

    const runs: { runId: string; events: number; bytes: number }[] = [];
    for await (const w of client.workflow.list({ query: `WorkflowId = "${name}"` })) {
      const d = await client.workflow.getHandle(name, w.runId).describe();
      runs.push({ runId: w.runId, events: d.historyLength, bytes: Number(d.raw.workflowExecutionInfo?.historySizeBytes ?? 0) });
    }
    const sample = Array.from({ length: Math.min(20, n) }, (_, i) => `${name}/replay/python/p_04/${i + 1}`);
    let events = 0;
    for (const id of sample) events += (await client.workflow.getHandle(id).fetchHistory()).events?.length ?? 0;

    console.log(`study of ${n} instances, concurrency ${concurrency}: ${summary.progress.done} done (${JSON.stringify(summary.progress.counts)}) in ${seconds.toFixed(0)} s`);
    console.log(`continue-as-new chain: ${runs.length} runs (hand-over past ${STUDY_HISTORY_LIMIT} events or when the server suggests it)`);
    for (const r of runs.reverse()) console.log(`  run ${r.runId.slice(0, 8)}: ${r.events} events, ${(r.bytes / 1024).toFixed(0)} KiB`);
    const largest = Math.max(...runs.map((r) => r.events));
    console.log(`largest run: ${largest} events (${((largest / n) * 1000).toFixed(0)} per 1,000 instances of the study); history events per instance: ${(events / sample.length).toFixed(0)}`);
    console.log(`targets: history events per instance <= 200; every run's history bounded (below ${STUDY_HISTORY_LIMIT} events plus what the running instances add)`);
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
    await server.stop();
    await remove();
  }
}

runBench(main);
