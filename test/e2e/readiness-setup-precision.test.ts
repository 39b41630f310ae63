import * as path from 'node:path';
import { pyramidTable } from '../../src/cli/readinessTable';
import { parseReadinessStudyFile } from '../../src/cli/readinessStudyFile';
import { readinessRecords } from '../../src/db/readiness';
import type { ReadinessRecord } from '../../src/domain/readiness';
import { computeReadinessMetrics, formatReadinessTable } from '../../src/metrics/readiness';
import { QUEUES } from '../../src/workers/queues';
import type { readinessStudyWorkflow } from '../../src/workflows/readiness';
import { REPO_ROOT, useProtocolHarness } from '../helpers/harness';

// Setup precision end to end on this CPU machine: real Temporal, Postgres, Docker, apt, pip and strace.
// The recorded agent of corpus/readiness/sessions/table-report installs tabulate (report.py imports it)
// and six (nothing imports it) into a venv, and jq (report.py runs it; apt brings libjq1 and libonig5
// with it) and tree (nothing runs it) from Debian; C1's entry is then traced in the frozen environment.
const h = useProtocolHarness();
let record: ReadinessRecord;

const STUDY = `name: readiness-setup
protocol: readiness
agents:
  - kind: replay
    name: replay
    path: ../corpus/readiness/sessions
repos:
  - id: table-report
    source: { path: ../corpus/readiness/repos/table-report }
    supports: [cpu]
    entry:
      cpu: python report.py
trials: 1
gpu: off
budget: { wall_s: 1800, steps: 20 }
limits: { memory_mb: 4096, cpus: 2 }
`;

beforeAll(async () => {
  const study = parseReadinessStudyFile(STUDY, path.join(REPO_ROOT, 'studies/readiness-setup.yaml'), false);
  await h.server.client.workflow.execute<typeof readinessStudyWorkflow>('readinessStudyWorkflow', { workflowId: study.name, taskQueue: QUEUES.cpu, args: [study] });
  [record] = await readinessRecords(h.database.db, study.name);
}, 900000);

test('the pyramid ran: C1 succeeded with the agent\'s venv', () => {
  expect(record).toMatchObject({ status: 'completed', session: { status: 'finished' }, error: null });
  expect(record.stages.c1).toMatchObject({ status: 'success', exit_code: 0 });
});

test('installed against the readiness image, used from the trace of C1\'s entry: one of two Python packages, three of four Debian packages', () => {
  const s = record.setup_precision!;
  expect(s).toMatchObject({ python: '/opt/venv/bin/python', error: null, traced: [{ stage: 'c1', command: 'python report.py', exit_code: 0, timed_out: false }] });
  expect(s.base_image).toMatch(/^envgap\/readiness:/);
  // The venv's pip and setuptools are the system's versions: no installation of the agent's.
  expect(s.kinds!.python).toMatchObject({ installed: ['six', 'tabulate'], installed_used: ['tabulate'], precision: 0.5 });
  expect(s.kinds!.apt).toMatchObject({ installed: ['jq', 'libjq1', 'libonig5', 'tree'], installed_used: ['jq', 'libjq1', 'libonig5'], precision: 0.75 });
  // What the image already had and the entry used is used, not installed.
  expect(s.kinds!.apt.used).toEqual(expect.arrayContaining(['bash', 'libc6']));
  expect(s.kinds!.npm).toEqual({ installed: [], used: [], installed_used: [], precision: null });
  expect([s.installed, s.installed_used, s.precision]).toEqual([6, 4, 4 / 6]);
  expect(s.untraced).toEqual([{ stage: 'c2', reason: 'not_applicable' }, { stage: 'c3', reason: 'not_applicable' }, { stage: 'c4', reason: 'not_applicable' }]);
});

test('in the metrics and the tables', () => {
  const metrics = computeReadinessMetrics([record], { mode: 'envgap' });
  expect(metrics.groups[0]!.setup_precision).toMatchObject({ jobs: 1, mean: 4 / 6, harness_errors: 0, mean_errors_as_failures: 4 / 6, by_kind: { python: 0.5, apt: 0.75, npm: null } });
  expect(formatReadinessTable(metrics)).toMatch(/replay .* 0\.67\s*$/m);
  expect(pyramidTable([record])).toMatch(/\s4\/6\s/);
});
