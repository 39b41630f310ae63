import { WorkflowFailedError } from '@temporalio/client';
import { DEFAULT_LIMITS, type InstanceInput } from '../../src/domain/study';
import type { InstanceRecord } from '../../src/domain/instance';
import { connectDocker } from '../../src/infra/docker';
import { QUEUES } from '../../src/workers/queues';
import type { instanceWorkflow } from '../../src/workflows/instance';
import { waitFor } from '../helpers/waitFor';
import { useProtocolHarness, writeReplayCorpus } from '../helpers/harness';

const h = useProtocolHarness();

const sleeper = { 'main.py': 'import time\ntime.sleep(600)\n', 'requirements.txt': '' };

function input(task: string, corpus: string, runTimeout: number, budget = 0): InstanceInput {
  return {
    instanceId: `ct/replay/python/${task}/1`, study: 'ct', agent: { kind: 'replay', name: 'replay', path: corpus }, language: 'python',
    task: { id: task, title: 't', domain: 'd' }, trial: 1, budget, limits: { ...DEFAULT_LIMITS, run_timeout_s: runTimeout },
  };
}

async function containersOf(id: string): Promise<string[]> {
  const list = await connectDocker().listContainers({ all: true, filters: { label: [`envgap.instance=${id}`] } });
  return list.map((c) => c.Id);
}

test('a run over its time limit is killed and classed Timeout', async () => {
  const i = input('p_25', writeReplayCorpus('python', 'p_25', [sleeper]), 3);
  await h.server.client.workflow.execute<typeof instanceWorkflow>('instanceWorkflow', { workflowId: i.instanceId, taskQueue: QUEUES.cpu, args: [i] });
  const row = await h.database.db.selectFrom('instances').selectAll().where('id', '=', i.instanceId).executeTakeFirstOrThrow();
  expect(row.record as unknown as InstanceRecord).toMatchObject({ status: 'failed', first_error_class: 'Timeout', iterations: 1 });
  expect(await containersOf(i.instanceId)).toEqual([]);
});

test('cancelling an instance mid-run removes its container and records nothing', async () => {
  const i = input('p_29', writeReplayCorpus('python', 'p_29', [sleeper]), 300);
  const handle = await h.server.client.workflow.start<typeof instanceWorkflow>('instanceWorkflow', { workflowId: i.instanceId, taskQueue: QUEUES.cpu, args: [i] });
  const deadline = Date.now() + 60000;
  while ((await containersOf(i.instanceId)).length === 0) {
    if (Date.now() > deadline) throw new Error('the container never started');
    await new Promise((r) => setTimeout(r, 200));
  }
  await new Promise((r) => setTimeout(r, 2000)); // let the run start
  await handle.cancel();
  await expect(handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);
  expect((await handle.describe()).status.name).toBe('CANCELLED');
  await waitFor('the cancelled instance\'s container to be removed', async () => (await containersOf(i.instanceId)).length === 0, 100_000, 200);
  expect(await h.database.db.selectFrom('instances').selectAll().where('id', '=', i.instanceId).execute()).toEqual([]);
}, 120000);
