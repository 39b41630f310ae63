import { readmeRecords } from '../db/readme';
import { expandReadmeStudy } from '../domain/readmeStudy';
import { listReadmeInstances } from '../readme/dataset';
import { openContext } from './context';
import { startOrFollowStudy } from './protocolStudy';
import { readmeMetricsTable } from './readmeMetrics';
import { parseReadmeStudyFile } from './readmeStudyFile';

/** Runs a README study (or follows it, or reports it when finished) and prints its scores per agent. */
export async function runReadmeStudy(text: string, file: string, opts: { worker: boolean }): Promise<void> {
  const study = parseReadmeStudyFile(text, file, listReadmeInstances);
  const ctx = await openContext({ db: true });
  try {
    const sourced = study.instances.filter((i) => i.source).length;
    const started = `started README study "${study.name}": ${expandReadmeStudy(study).length} instances (${study.agents.length} agent(s), ${study.instances.length} README(s), ${study.trials} trial(s)); judge ${study.judge.kind}; Pass@1 ${study.pass.run ? `on, ${sourced} of ${study.instances.length} READMEs with a repository source` : 'off'}`;
    await startOrFollowStudy(ctx, { name: study.name, workflowType: 'readmeStudyWorkflow', input: study, started, agents: study.agents }, opts);
    process.stdout.write(`\nREADME study ${study.name}\n${readmeMetricsTable(await readmeRecords(ctx.db!, study.name))}\n`);
  } finally {
    await ctx.close();
  }
}
