import { readinessRecords } from '../db/readiness';
import { expandReadinessStudy } from '../domain/readinessStudy';
import { QUEUES } from '../workers/queues';
import type { readinessStudyWorkflow } from '../workflows/readiness';
import { activityPollers, openContext, startWorkerIfNone } from './context';
import { parseReadinessStudyFile } from './readinessStudyFile';
import { pyramidTable } from './readinessTable';
import { say } from './say';
import { uiLink } from './study';
import { describeOrNull } from './workflowStatus';

/**
 * Runs a readiness study (or follows it, or reports it when finished) and prints the pyramid. With
 * `gpu: auto`, whether a GPU worker polls is looked at here, once, and written into the input.
 */
export async function runReadinessStudy(text: string, file: string, opts: { worker: boolean }): Promise<void> {
  const ctx = await openContext({ db: true });
  try {
    const gpuWorkers = await activityPollers(ctx, QUEUES.gpu);
    const study = parseReadinessStudyFile(text, file, gpuWorkers > 0);
    const handle = ctx.client.workflow.getHandle<typeof readinessStudyWorkflow>(study.name);
    const existing = await describeOrNull(handle);
    if (existing?.status.name === 'COMPLETED') {
      say(`study "${study.name}" already finished (${existing.closeTime?.toISOString()}); not running it again`);
    } else {
      const worker = opts.worker ? await startWorkerIfNone(ctx) : null;
      try {
        if (existing?.status.name === 'RUNNING') say(`study "${study.name}" is already running; following it`);
        else {
          await ctx.client.workflow.start('readinessStudyWorkflow', { workflowId: study.name, taskQueue: QUEUES.cpu, args: [study] });
          const gpu = study.gpu.mode === 'off' ? 'GPU stages off' : study.gpu.mode === 'required' ? 'GPU stages wait for a GPU worker' : gpuWorkers > 0 ? `GPU stages on ${gpuWorkers} GPU worker(s)` : 'no GPU worker polls: GPU stages skipped (no_gpu_worker)';
          say(`started readiness study "${study.name}": ${expandReadinessStudy(study).length} instances (${study.agents.length} agent(s), ${study.repos.length} repo(s), ${study.trials} trial(s)); ${gpu}`);
        }
        const link = uiLink(ctx, study.name);
        if (link) say(`Temporal UI: ${link}`);
        const r = await handle.result();
        say(`${r.done} instances done: ${r.counts.completed} completed, ${r.counts.error} error`);
      } finally {
        await worker?.stop();
      }
    }
    process.stdout.write(`\nReadiness study ${study.name}\n${pyramidTable(await readinessRecords(ctx.db!, study.name))}\n`);
  } finally {
    await ctx.close();
  }
}
