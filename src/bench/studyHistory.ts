/**
 * Benchmark (not a test): a study's history stays bounded however many instances it has. One study of
 * N instances (default 2,000) runs the real study and instance workflows against a throw-away Temporal
 * dev server, with activities that answer at once (no agent, no container, no database): what is
 * measured is the workflows' history, nothing else. Prints, per run of the study's continue-as-new
 * chain, its events and bytes; and the events per instance.
 *   node dist/src/bench/studyHistory.js [N] [concurrency]      e.g. 2000 50
 * The instant activities are this benchmark's own; no study run by envgap can use them.
 */
import { createAnswerAndExecuteActivities } from '../activities/answerAndExecute';
import type { AgentCallResult, ExecuteInput, ExecutionOutcome } from '../activities/types';
import { DEFAULT_LIMITS, type StudyInput } from '../domain/study';
import { STUDY_HISTORY_LIMIT, type studyWorkflow } from '../workflows/study';
import { chainRuns, meanEvents, printChain, withHistoryHarness } from './historyHarness';
import { runBench } from './run';

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
  await withHistoryHarness('history', instantActivities, 4 * concurrency, async (client, taskQueue) => {
    const started = Date.now();
    const summary = await client.workflow.execute<typeof studyWorkflow>('studyWorkflow', { workflowId: name, taskQueue, args: [study] });
    const seconds = (Date.now() - started) / 1000;
    const runs = await chainRuns(client, name);
    const perInstance = await meanEvents(client, Array.from({ length: Math.min(20, n) }, (_, i) => `${name}/replay/python/p_04/${i + 1}`));
    console.log(`study of ${n} instances, concurrency ${concurrency}: ${summary.progress.done} done (${JSON.stringify(summary.progress.counts)}) in ${seconds.toFixed(0)} s`);
    printChain(runs);
    const largest = Math.max(...runs.map((r) => r.events));
    console.log(`largest run: ${largest} events (${((largest / n) * 1000).toFixed(0)} per 1,000 instances of the study); history events per instance: ${perInstance.toFixed(0)}`);
    console.log(`targets: history events per instance <= 200; every run's history bounded (below ${STUDY_HISTORY_LIMIT} events plus what the running instances add)`);
  });
}

runBench(main);
