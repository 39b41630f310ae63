import { defineQuery, executeChild, proxyActivities, setHandler, ParentClosePolicy, WorkflowIdReusePolicy } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { InstanceRecord } from '../domain/instance';
import { expandStudy, type StudyInput } from '../domain/study';
import { instanceWorkflow, type InstanceOutcome } from './instance';

export interface StudyProgress {
  total: number;
  done: number;
  running: string[];
  counts: Record<InstanceRecord['status'], number>;
}

export interface StudySummary {
  study: string;
  progress: StudyProgress;
  outcomes: InstanceOutcome[];
}

const { recordStudy } = proxyActivities<Activities>({ startToCloseTimeout: '1 minute', retry: { maximumInterval: '1m' } });

export const progressQuery = defineQuery<StudyProgress>('progress');

/** A study: every (agent, language, task, trial) as a child workflow, at most `concurrency` at a time. */
export async function studyWorkflow(study: StudyInput): Promise<StudySummary> {
  await recordStudy(study);
  const instances = expandStudy(study);
  const progress: StudyProgress = { total: instances.length, done: 0, running: [], counts: { success: 0, failed: 0, error: 0 } };
  setHandler(progressQuery, () => progress);
  const outcomes: InstanceOutcome[] = new Array(instances.length);

  let next = 0;
  const lane = async () => {
    while (next < instances.length) {
      const index = next++;
      const inst = instances[index];
      progress.running.push(inst.instanceId);
      const outcome = await executeChild(instanceWorkflow, {
        workflowId: inst.instanceId,
        args: [inst],
        parentClosePolicy: ParentClosePolicy.TERMINATE,
        workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
      });
      outcomes[index] = outcome;
      progress.running = progress.running.filter((id) => id !== inst.instanceId);
      progress.counts[outcome.status]++;
      progress.done++;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(study.concurrency, instances.length)) }, lane));
  return { study: study.name, progress, outcomes };
}
