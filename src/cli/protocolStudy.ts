import { QUEUES } from '../workers/queues';
import type { CliContext } from './context';
import { followProgress } from './followProgress';
import { watchWorkers } from './workerWatch';
import { say } from './say';
import { refuseUnsetVariables } from './unsetVariables';
import { uiLink } from './uiLink';
import { describeOrNull } from './workflowStatus';

/**
 * Starts a protocol's study workflow (or follows it when it runs, or leaves it when it finished) and
 * waits for it; with `worker`, a worker runs in this process where none polls, or where the one it
 * relied on goes (src/cli/workerWatch.ts). The caller prints the study's results after.
 */
export async function startOrFollowStudy(
  ctx: CliContext,
  study: { name: string; workflowType: string; input: unknown; started: string; agents: readonly { kind: string; name: string; env?: string[]; api_key_env?: string }[] },
  opts: { worker: boolean },
): Promise<void> {
  const handle = ctx.client.workflow.getHandle<() => Promise<{ done: number; counts: { completed: number; error: number } }>>(study.name);
  const existing = await describeOrNull(handle);
  if (existing?.status.name === 'COMPLETED') {
    say(`study "${study.name}" already finished (${existing.closeTime?.toISOString()}); not running it again`);
    return;
  }
  if (existing?.status.name !== 'RUNNING') refuseUnsetVariables(study.name, study.agents, opts.worker);
  const worker = await watchWorkers(ctx, { start: opts.worker });
  try {
    if (existing?.status.name === 'RUNNING') say(`study "${study.name}" is already running; following it`);
    else {
      await ctx.client.workflow.start(study.workflowType, { workflowId: study.name, taskQueue: QUEUES.cpu, args: [study.input] });
      say(study.started);
    }
    const link = uiLink(ctx, study.name);
    if (link) say(`Temporal UI: ${link}`);
    const r = await followProgress<{ done: number; counts: { completed: number; error: number } }>(handle);
    say(`${r.done} instances done: ${r.counts.completed} completed, ${r.counts.error} error`);
  } finally {
    await worker.stop();
  }
}
