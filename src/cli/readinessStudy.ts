import { readinessRecords } from '../db/readiness';
import { expandReadinessStudy } from '../domain/readinessStudy';
import { activityPollers, openContext } from './context';
import { startOrFollowStudy } from './protocolStudy';
import { QUEUES } from '../workers/queues';
import { parseReadinessStudyFile } from './readinessStudyFile';
import { pyramidTable } from './readinessTable';

/**
 * Runs a readiness study (or follows it, or reports it when finished) and prints the pyramid. With
 * `gpu: auto`, whether a GPU worker polls is looked at here, once, and written into the input.
 */
export async function runReadinessStudy(text: string, file: string, opts: { worker: boolean }): Promise<void> {
  const ctx = await openContext({ db: true });
  try {
    const gpuWorkers = await activityPollers(ctx, QUEUES.gpu);
    const study = parseReadinessStudyFile(text, file, gpuWorkers > 0);
    const gpu = study.gpu.mode === 'off' ? 'GPU stages off' : study.gpu.mode === 'required' ? 'GPU stages wait for a GPU worker' : gpuWorkers > 0 ? `GPU stages on ${gpuWorkers} GPU worker(s)` : 'no GPU worker polls: GPU stages skipped (no_gpu_worker)';
    const started = `started readiness study "${study.name}": ${expandReadinessStudy(study).length} instances (${study.agents.length} agent(s), ${study.repos.length} repo(s), ${study.trials} trial(s)); ${gpu}`;
    await startOrFollowStudy(ctx, { name: study.name, workflowType: 'readinessStudyWorkflow', input: study, started, agents: study.agents }, opts);
    process.stdout.write(`\nReadiness study ${study.name}\n${pyramidTable(await readinessRecords(ctx.db!, study.name))}\n`);
  } finally {
    await ctx.close();
  }
}
