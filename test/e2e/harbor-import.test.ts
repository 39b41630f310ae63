import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { importHarborCommand, recordingsDir } from '../../src/cli/harborImportCommand';
import { parseReadinessStudyFile } from '../../src/cli/readinessStudyFile';
import { readinessRecords } from '../../src/db/readiness';
import type { ReadinessRecord } from '../../src/domain/readiness';
import { QUEUES } from '../../src/workers/queues';
import type { readinessStudyWorkflow } from '../../src/workflows/readiness';
import { REPO_ROOT, useProtocolHarness } from '../helpers/harness';

// A lab's Harbor job measured without running its agents again: the Harbor-layout fixture's job
// (test/fixtures/harbor) imported with `envgap import harbor`, then its two trials of the textstats
// task replayed as readiness sessions on real Temporal, Postgres, Docker and PyPI, frozen and probed
// C0-C5, the task's own verifier as C1.
const h = useProtocolHarness();
const FIXTURE = path.join(REPO_ROOT, 'test/fixtures/harbor');
const TEXTSTATS = 'envgap-fixtures@textstats';
let records: Map<string, ReadinessRecord>;
let out: string;

beforeAll(async () => {
  out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-e2e-')), 'harbor.yaml');
  importHarborCommand([path.join(FIXTURE, 'jobs')], { out, tasks: [path.join(FIXTURE, 'tasks', 'textstats')], name: 'harbor-import' });
  const study = parseReadinessStudyFile(fs.readFileSync(out, 'utf8'), out, false);
  await h.server.client.workflow.execute<typeof readinessStudyWorkflow>('readinessStudyWorkflow', { workflowId: study.name, taskQueue: QUEUES.cpu, args: [study] });
  records = new Map((await readinessRecords(h.database.db, study.name)).map((r) => [r.agent, r]));
}, 900000);

function harborTrial(agent: string): { passed: boolean | null } {
  return JSON.parse(fs.readFileSync(path.join(recordingsDir(out), 'sessions', agent, TEXTSTATS, '1', 'harbor-trial.json'), 'utf8'));
}

test("Terminus's trial replays in one shell: its venv is the report's interpreter, C0 finds every import, and the task's verifier passes as it did under Harbor", () => {
  const r = records.get('terminus-2')!;
  expect(r).toMatchObject({ status: 'completed', repo: TEXTSTATS, session: { status: 'finished', budget_exceeded: null }, violations: [] });
  // `python3 -m venv .venv` run in /app, the link to /repo: Python names the folder by its real path.
  expect(r.report).toMatchObject({ python_path: '/repo/.venv/bin/python' });
  expect(r.stages.c0).toMatchObject({ status: 'success', missing: [], missing_source: [] });
  expect(r.stages.c1).toMatchObject({ status: 'success', exit_code: 0 });
  expect(harborTrial('terminus-2').passed).toBe(true);
  expect(r.stages.c5).toMatchObject({ path: 0, version: 0, capability: 0 });
});

test("Claude Code's trial fails the verifier as it did under Harbor; its edit of requirements.txt is a violation; its environment is not the one the report finds", () => {
  const r = records.get('claude-code')!;
  expect(r).toMatchObject({ status: 'completed', session: { status: 'finished' }, violations: [{ path: 'requirements.txt', change: 'modified' }] });
  expect(r.stages.c1).toMatchObject({ status: 'failure' });
  expect(r.stages.c1.error_excerpt ?? '').toContain('envgap: harbor rewards {"reward": 0.0}');
  expect(harborTrial('claude-code').passed).toBe(false);
  // The agent's shell resolved no `python`: the image's python3, which lacks tabulate (pyright finds
  // only the stubs it bundles for it).
  expect(r.report).toMatchObject({ python_path: '/usr/bin/python3' });
  expect(r.stages.c0).toMatchObject({ missing: [], missing_source: ['tabulate'] });
});

test("setup precision, traced through the task's verifier: Terminus's venv install of tabulate is used (reached through /app, the link to /repo); Claude Code's venv is not the report's interpreter, so nothing it installed is seen", () => {
  const none = { installed: [], installed_used: [], precision: null };
  const terminus = records.get('terminus-2')!.setup_precision!;
  expect(terminus).toMatchObject({ error: null, python: '/repo/.venv/bin/python', installed: 1, installed_used: 1, precision: 1, traced: [{ stage: 'c1', exit_code: 0, timed_out: false }] });
  expect(terminus.kinds).toMatchObject({ python: { installed: ['tabulate'], installed_used: ['tabulate'], precision: 1 }, apt: none, npm: none });
  // Its `venv/bin/pip install` went into /app/venv; the listing reads the report's /usr/bin/python3,
  // whose packages the trial left as the image had them: installed is empty, precision null (not 0).
  const claude = records.get('claude-code')!.setup_precision!;
  expect(claude).toMatchObject({ error: null, python: '/usr/bin/python3', installed: 0, installed_used: 0, precision: null, traced: [{ stage: 'c1', timed_out: false }] });
  expect(claude.kinds).toMatchObject({ python: none, apt: none, npm: none });
});

test('the GPU stages are skipped on a machine with no GPU worker; the task supports only its verifier on the CPU', () => {
  for (const r of records.values()) {
    expect(r.stages.c2).toMatchObject({ status: 'skipped', skip_reason: 'no_gpu_worker' });
    expect(r.stages.c3).toMatchObject({ status: 'skipped', skip_reason: 'not_applicable' });
  }
});
