import { WorkflowFailedError } from '@temporalio/client';
import { agentCallTimeoutS, HEARTBEAT_TIMEOUT_S } from '../../src/domain/activityTimeouts';
import { DEFAULT_LIMITS, type StudyInput } from '../../src/domain/study';
import { QUEUES } from '../../src/workers/queues';
import type { studyWorkflow } from '../../src/workflows/study';
import { useProtocolHarness } from '../helpers/harness';
import { processesMatching, uniqueSleep, waitFor } from '../helpers/processes';

const h = useProtocolHarness();

test('cancelling a study while a cli agent sleeps leaves no agent process, and the call ran under the agent\'s own limit', async () => {
  const sleep = uniqueSleep();
  const agent = { kind: 'cli' as const, name: 'sleeper', command: sleep.command, timeout_s: 3600, env: [] };
  const study: StudyInput = {
    name: `cancel-cli-${process.pid}`,
    agents: [agent],
    languages: ['python'],
    tasks: [{ id: 'p_04', title: 't', domain: 'd' }],
    trials: 1,
    budget: 0,
    concurrency: 1,
    limits: DEFAULT_LIMITS,
  };
  const handle = await h.server.client.workflow.start<typeof studyWorkflow>('studyWorkflow', { workflowId: study.name, taskQueue: QUEUES.cpu, args: [study] });
  await waitFor('the cli agent to start', () => processesMatching(sleep.marker).length > 0, 120000);

  await handle.cancel();
  await expect(handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);
  // WAIT_CANCELLATION_COMPLETED: by the time the study has closed, the agent is dead.
  expect(processesMatching(sleep.marker)).toEqual([]);

  const instanceId = `${study.name}/sleeper/python/p_04/1`;
  const instance = h.server.client.workflow.getHandle(instanceId);
  expect((await instance.describe()).status.name).toBe('CANCELLED');
  const history = await instance.fetchHistory();
  const scheduled = history.events!.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callAgent')!.activityTaskScheduledEventAttributes!;
  expect(Number(scheduled.startToCloseTimeout!.seconds)).toBe(agentCallTimeoutS(agent));
  expect(Number(scheduled.heartbeatTimeout!.seconds)).toBe(HEARTBEAT_TIMEOUT_S);
}, 240000);
