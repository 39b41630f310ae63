import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseReadinessStudyFile } from '../../src/cli/readinessStudyFile';
import { readinessRecords } from '../../src/db/readiness';
import { connectDocker } from '../../src/infra/docker';
import { QUEUES } from '../../src/workers/queues';
import type { readinessStudyWorkflow } from '../../src/workflows/readiness';
import { REPO_ROOT } from '../helpers/harness';
import { useWorkerProcesses } from '../helpers/workerProcesses';

// A readiness session survives its worker: `envgap worker` (the built CLI) is SIGKILLed while a
// session step runs in the instance's container; a worker started again on the same machine (same
// state folder and database, so the same own queue) finds the container and resumes at that step.
const h = useWorkerProcesses();
const startWorker = (stateDir: string) => h.start(stateDir);

test('a worker killed mid-session: the next worker on the machine resumes in the surviving container, and the record says so', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-rkill-'));
  const marker = `envgap-resume-${process.pid}`;
  fs.mkdirSync(path.join(dir, 'sessions/numpy-stats/1'), { recursive: true });
  const steps = [
    { cmd: 'python3 -m venv /opt/venv && /opt/venv/bin/pip install -q -r "$REPO_ROOT/requirements.txt"', timeout_s: 900 },
    { cmd: `echo ${marker} >> /tmp/attempts && sleep 12` },
    { cmd: '/opt/venv/bin/python -c "import json, sys; json.dump({\'python_path\': sys.executable, \'env_tool\': \'venv\'}, open(\'/opt/scimlopsbench/report.json\', \'w\'))"' },
  ];
  fs.writeFileSync(path.join(dir, 'sessions/numpy-stats/1/session.jsonl'), steps.map((s) => JSON.stringify(s)).join('\n') + '\n');
  const file = path.join(dir, 'study.yaml');
  fs.writeFileSync(
    file,
    `name: rkill-${process.pid}\nprotocol: readiness\nagents:\n  - { kind: replay, name: replay, path: sessions }\nrepos:\n  - id: numpy-stats\n    source: { path: ${path.join(REPO_ROOT, 'corpus/readiness/repos/numpy-stats')} }\n    supports: [cpu]\n    entry: { cpu: "PYTHONPATH=. python scripts/run_baseline.py" }\n`,
  );
  const study = parseReadinessStudyFile(fs.readFileSync(file, 'utf8'), file);
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-rkill-state-'));
  const first = startWorker(stateDir);
  const handle = await h.server.client.workflow.start<typeof readinessStudyWorkflow>('readinessStudyWorkflow', { workflowId: study.name, taskQueue: QUEUES.cpu, args: [study] });

  // Kill the worker while step 1 (the sleep) runs in the session's container.
  const docker = connectDocker();
  const deadline = Date.now() + 600000;
  for (;;) {
    if (Date.now() > deadline) throw new Error('the sleeping step never started');
    const list = await docker.listContainers({ filters: { label: [`envgap.instance=${study.name}/replay/numpy-stats/1`, 'envgap.role=session'] } });
    const session = list[0];
    if (session) {
      const top = await docker.getContainer(session.Id).top().catch(() => null);
      if (top?.Processes?.some((p: string[]) => p.join(' ').includes('sleep 12'))) break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  first.kill('SIGKILL');
  await new Promise((r) => first.once('exit', r));
  startWorker(stateDir);
  await handle.result();

  const [r] = await readinessRecords(h.database.db, study.name);
  expect(r).toMatchObject({ status: 'completed', session: { status: 'finished', steps: 3, restarted: 0 } });
  expect(r!.session!.resumed).toBeGreaterThanOrEqual(1);
  expect(r!.stages.c1).toMatchObject({ status: 'success' });
  expect(r!.report).toMatchObject({ env_tool: 'venv' });
}, 900000);
