/**
 * Benchmark (not a test): a README study of the full EnConda-Bench size stays within Temporal's limits.
 * One study of N README instances x A agents (default 4,201 x 2, each with Pass@1) runs the real README
 * study and instance workflows on the study engine against a throw-away Temporal dev server, with
 * activities that answer at once (no agent, no container, no database): what is measured is the
 * history. Prints the study input's size (carried into every run of the continue-as-new chain), each
 * run's events and bytes, and the events of an instance.
 *   node dist/src/bench/readmeHistory.js [N] [agents] [concurrency]      e.g. 4201 2 100
 * The instant activities are this benchmark's own; no study run by envgap can use them.
 */
import type { ReadmeStudyInput } from '../domain/readmeStudy';
import { studyInputBytes, STUDY_INPUT_MAX_BYTES } from '../domain/studySize';
import type { readmeStudyWorkflow } from '../workflows/readme';
import { chainRuns, meanEvents, printChain, withHistoryHarness } from './historyHarness';
import { runBench } from './run';

const answered = { status: 'answered', problem: null, detected_errors: [{ error_type: 'E1', error_description: 'd', fix_suggestion: 'f' }], setup_script_hash: 'sha256:script', answer_hash: 'sha256:answer', duration_s: 1, tokens_in: null, tokens_out: null, cost_usd: null };

/** Every activity a README study with replay agents and Pass@1 schedules, answering at once. */
const instantActivities = {
  async recordReadmeStudy() {},
  async prepareReadmeInstance() {
    return { promptHash: 'sha256:prompt', goldHash: 'sha256:gold', gold: { errors: 1, types: ['E1'], level: 'level1' }, readmeFile: 'README.md' };
  },
  async replayAnswer() {
    return answered;
  },
  async scoreReadmeAnswer() {
    return { instance: 'x', judge: 'deterministic', type: { tp: 1, fp: 0, fn: 0 } };
  },
  async runSetupScript() {
    return { status: 'pass', reason: null, exit_code: 0, timed_out: false, missing_imports: 0, missing: [], duration_s: 1, log_excerpt: null, python: '/usr/bin/python3', logHash: 'sha256:log' };
  },
  async recordReadme() {},
};

/** N instances shaped as the data set's (names, folders, pinned repositories of EnConda's lengths). */
function studyOf(name: string, n: number, agents: number, concurrency: number): ReadmeStudyInput {
  return {
    name,
    protocol: 'readme',
    dataDir: '/data/enconda',
    agents: Array.from({ length: agents }, (_, i) => ({ kind: 'replay' as const, name: `agent-${i + 1}`, path: `/corpus/readme/answers-${i + 1}` })),
    instances: Array.from({ length: n }, (_, i) => {
      const repo = `owner${i % 321}_repository-name-${i % 321}`;
      return {
        name: `${repo}_error_readme_${(i % 13) + 1}_only_E${(i % 6) + 1}`,
        repoFolder: `error_gen_${repo}`,
        repository: `owner${i % 321}/repository-name-${i % 321}`,
        source: { kind: 'git' as const, url: `https://github.com/owner${i % 321}/repository-name-${i % 321}.git`, commit: `${(i % 321).toString(16).padStart(8, '0')}${'0'.repeat(32)}` },
      };
    }),
    trials: 1,
    concurrency,
    judge: { kind: 'deterministic' },
    pass: { run: true, timeoutS: 600 },
    agentTimeoutS: 600,
    memoryMb: 4096,
    cpus: 2,
  };
}

async function main() {
  const n = Number(process.argv[2] ?? 4201);
  const agents = Number(process.argv[3] ?? 2);
  const concurrency = Number(process.argv[4] ?? 100);
  const name = `bench-readme-${process.pid}`;
  const study = studyOf(name, n, agents, concurrency);
  await withHistoryHarness('readme-history', instantActivities, 4 * concurrency, async (client, taskQueue) => {
    const started = Date.now();
    const summary = await client.workflow.execute<typeof readmeStudyWorkflow>('readmeStudyWorkflow', { workflowId: name, taskQueue, args: [study] });
    const seconds = (Date.now() - started) / 1000;
    const runs = await chainRuns(client, name);
    const perInstance = await meanEvents(client, study.instances.slice(0, 20).map((inst) => `${name}/agent-1/${inst.name}/1`));
    console.log(`README study of ${n} instances x ${agents} agents = ${n * agents} instances, concurrency ${concurrency}: ${summary.done} done (${JSON.stringify(summary.counts)}) in ${seconds.toFixed(0)} s`);
    console.log(`study input: ${(studyInputBytes(study) / 1024).toFixed(0)} KiB (bound ${(STUDY_INPUT_MAX_BYTES / 1024).toFixed(0)} KiB; Temporal refuses a payload over 2 MiB), carried into each run`);
    printChain(runs);
    const largest = runs.reduce((m, r) => Math.max(m, r.events), 0);
    const largestBytes = runs.reduce((m, r) => Math.max(m, r.bytes), 0);
    console.log(`largest run: ${largest} events, ${(largestBytes / 1024 / 1024).toFixed(1)} MiB (Temporal's limits: 51,200 events, 50 MiB); history events per instance: ${perInstance.toFixed(0)}`);
  });
}

runBench(main);
