import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { studyRecords } from '../../src/db/instances';
import { connectDocker } from '../../src/infra/docker';
import { QUEUES } from '../../src/workers/queues';
import type { studyWorkflow } from '../../src/workflows/study';
import { quickstartPythonStudy } from '../helpers/studies';
import { waitFor } from '../helpers/waitFor';
import { useWorkerProcesses } from '../helpers/workerProcesses';

// Two studies on one worker share its machine: each asks for 2 instances at once, 1 CPU each, on a
// worker given 2 CPUs. Without the machine budget 4 containers would run at once; with it, at most 2.
const h = useWorkerProcesses();

test("two studies' containers together never take more CPUs than the worker's machine has", async () => {
  const worker = h.start(fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-budget-')), { env: { ENVGAP_WORKER_CPUS: '2' } });
  await waitFor('the worker to say its machine', () => worker.output().includes('containers share 2 CPUs'), 120000);

  const limits = { ...quickstartPythonStudy('x', []).limits, cpus: 1 };
  const studies = [
    quickstartPythonStudy(`budget-a-${process.pid}`, ['p_04', 'p_43'], { concurrency: 2, limits }),
    quickstartPythonStudy(`budget-b-${process.pid}`, ['p_13', 'p_49'], { concurrency: 2, limits }),
  ];
  const ours = (id: string | undefined) => studies.some((s) => id?.startsWith(`${s.name}/`));
  const docker = connectDocker();
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const running = (await docker.listContainers({ all: true, filters: { label: ['envgap.instance'] } })).filter((c) => ours(c.Labels['envgap.instance']));
      peak = Math.max(peak, running.length);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    await Promise.all(studies.map((s) => h.server.client.workflow.execute<typeof studyWorkflow>('studyWorkflow', { workflowId: s.name, taskQueue: QUEUES.cpu, args: [s] })));
  } finally {
    sampling = false;
    await sampler;
  }

  expect(peak).toBe(2);
  for (const s of studies) {
    const records = await studyRecords(h.database.db, s.name);
    expect(records.map((r) => [r.task, r.status])).toEqual(s.tasks.map((t) => [t.id, 'success']).sort());
  }
}, 600000);
