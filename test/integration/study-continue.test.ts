import { DEFAULT_LIMITS, type StudyInput } from '../../src/domain/study';
import { QUEUES } from '../../src/workers/queues';
import type { studyWorkflow } from '../../src/workflows/study';
import { useProtocolHarness, writeReplayCorpus } from '../helpers/harness';
import * as fs from 'node:fs';
import * as path from 'node:path';

// A long study hands over to fresh runs (continue-as-new) and still runs every instance exactly once.
const h = useProtocolHarness();
const passing = { 'main.py': 'print("ok")\n', 'requirements.txt': '' };

test('a study past its history limit continues as new, counting and recording every instance once', async () => {
  const corpus = writeReplayCorpus('python', 'p_41', [passing]);
  for (const task of ['p_42', 'p_43']) fs.cpSync(path.join(corpus, 'python/p_41'), path.join(corpus, 'python', task), { recursive: true });
  const study: StudyInput & { historyLimit: number } = {
    name: 'handover',
    agents: [{ kind: 'replay', name: 'replay', path: corpus }],
    languages: ['python'],
    tasks: ['p_41', 'p_42', 'p_43'].map((id) => ({ id, title: 't', domain: 'd' })),
    trials: 1,
    budget: 0,
    concurrency: 1,
    limits: DEFAULT_LIMITS,
    historyLimit: 1,
  };
  const handle = await h.server.client.workflow.start<typeof studyWorkflow>('studyWorkflow', { workflowId: study.name, taskQueue: QUEUES.cpu, args: [study] });
  const summary = await handle.result();
  expect(summary.progress).toMatchObject({ total: 3, done: 3, counts: { success: 3, failed: 0, error: 0 } });
  expect(summary.outcomes).toHaveLength(1); // the last run's instance; the database holds all
  const first = await h.server.client.workflow.getHandle(study.name, handle.firstExecutionRunId).describe();
  expect(first.status.name).toBe('CONTINUED_AS_NEW');
  const rows = await h.database.db.selectFrom('instances').select(['id', 'status']).where('study', '=', 'handover').orderBy('id').execute();
  expect(rows).toEqual(['p_41', 'p_42', 'p_43'].map((t) => ({ id: `handover/replay/python/${t}/1`, status: 'success' })));
}, 300000);
