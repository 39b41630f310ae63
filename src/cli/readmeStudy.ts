import { readmeRecords } from '../db/readme';
import { expandReadmeStudy } from '../domain/readmeStudy';
import { listReadmeInstances } from '../readme/dataset';
import { QUEUES } from '../workers/queues';
import type { readmeStudyWorkflow } from '../workflows/readme';
import { openContext, startWorkerIfNone } from './context';
import { readmeMetricsTable } from './readmeMetrics';
import { parseReadmeStudyFile } from './readmeStudyFile';
import { say } from './say';
import { uiLink } from './study';
import { describeOrNull } from './workflowStatus';

/** Runs a README study (or follows it, or reports it when finished) and prints its scores per agent. */
export async function runReadmeStudy(text: string, file: string, opts: { worker: boolean }): Promise<void> {
  const study = parseReadmeStudyFile(text, file, listReadmeInstances);
  const ctx = await openContext({ db: true });
  try {
    const handle = ctx.client.workflow.getHandle<typeof readmeStudyWorkflow>(study.name);
    const existing = await describeOrNull(handle);
    if (existing?.status.name === 'COMPLETED') {
      say(`study "${study.name}" already finished (${existing.closeTime?.toISOString()}); not running it again`);
    } else {
      const worker = opts.worker ? await startWorkerIfNone(ctx) : null;
      try {
        if (existing?.status.name === 'RUNNING') say(`study "${study.name}" is already running; following it`);
        else {
          await ctx.client.workflow.start('readmeStudyWorkflow', { workflowId: study.name, taskQueue: QUEUES.cpu, args: [study] });
          const sourced = study.instances.filter((i) => i.source).length;
          say(`started README study "${study.name}": ${expandReadmeStudy(study).length} instances (${study.agents.length} agent(s), ${study.instances.length} README(s), ${study.trials} trial(s)); judge ${study.judge.kind}; Pass@1 ${study.pass.run ? `on, ${sourced} of ${study.instances.length} READMEs with a repository source` : 'off'}`);
        }
        const link = uiLink(ctx, study.name);
        if (link) say(`Temporal UI: ${link}`);
        const r = await handle.result();
        say(`${r.done} instances done: ${r.counts.completed} completed, ${r.counts.error} error`);
      } finally {
        await worker?.stop();
      }
    }
    process.stdout.write(`\nREADME study ${study.name}\n${readmeMetricsTable(await readmeRecords(ctx.db!, study.name))}\n`);
  } finally {
    await ctx.close();
  }
}
