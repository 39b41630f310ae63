import * as path from 'node:path';
import { instanceText } from '../../src/cli/instanceText';
import { BlobStore } from '../../src/db/blobs';
import { studyRecords } from '../../src/db/instances';
import { instanceIterations } from '../../src/db/iterations';
import { confirmStudyId } from '../../src/domain/confirmation/ids';
import type { InstanceRecord, Language } from '../../src/domain/instance';
import { DEFAULT_LIMITS, type StudyInput } from '../../src/domain/study';
import { QUEUES } from '../../src/workers/queues';
import type { confirmStudyWorkflow } from '../../src/workflows/confirmStudy';
import type { studyWorkflow } from '../../src/workflows/study';
import { REPO_ROOT, useProtocolHarness } from '../helpers/harness';

// Phantom confirmation for real: the quickstart corpus's recorded answers on a Temporal dev server,
// Postgres and Docker; each trial a fresh container that installs, builds and runs the project again
// without the name taken out.
const h = useProtocolHarness();

function study(name: string, language: Language, task: string, confirm: boolean): StudyInput {
  return {
    name,
    agents: [{ kind: 'replay', name: 'replay', path: path.join(REPO_ROOT, 'corpus/quickstart') }],
    languages: [language],
    tasks: [{ id: task, title: task, domain: 'quickstart' }],
    trials: 1,
    budget: 10,
    concurrency: 1,
    limits: { ...DEFAULT_LIMITS, run_timeout_s: 60 },
    ...(confirm ? { confirmPhantoms: { maxTrials: 6 } } : {}),
  };
}

async function runStudy(s: StudyInput): Promise<InstanceRecord> {
  await h.server.client.workflow.execute<typeof studyWorkflow>('studyWorkflow', { workflowId: s.name, taskQueue: QUEUES.cpu, args: [s] });
  const [record] = await studyRecords(h.database.db, s.name);
  return record!;
}

test('Python p_13, confirmed as it runs: colorama (declared, never imported) is unneeded; bloat cannot be tried with pip, and the record says why', async () => {
  const r = await runStudy(study('confirm-py', 'python', 'p_13', true));
  expect(r).toMatchObject({ status: 'success', declared: ['click', 'colorama'] });
  expect(r.traced).toContain('click');
  expect(r.phantom_check).toEqual({ colorama: 'unneeded' });
  expect(r.confirmation).toMatchObject({ baseline: { reproduced: true }, trials: 2, max_trials: 6, output_compared: true, phantom: { broke: {}, untried: [] }, bloat: { unsupported: expect.stringContaining('pip') } });
  expect(r.confirmation!.duration_ms).toBeGreaterThan(0);
  expect(r.bloat_check).toBeUndefined();
  // envgap instance show tells it from the stored record.
  const id = 'confirm-py/replay/python/p_13/1';
  const blobs = new BlobStore(h.database.db);
  const shown = await instanceText(id, r, await instanceIterations(h.database.db, id), (hash) => blobs.getText(hash), false);
  expect(shown).toMatch(/\nconfirmation: the unchanged project ran again alike; 2 trial\(s\) of at most 6, \d+\.\d s of trial executions; exits and output compared\nphantom_check:\n  colorama: unneeded\nbloat_check: not possible: .*pip/);
}, 600000);

test('C++ p_11: OpenSSL, named otherwise in the trace (crypto), is needed: without find_package(OpenSSL) the link fails', async () => {
  const r = await runStudy(study('confirm-cpp', 'cpp', 'p_11', true));
  expect(r).toMatchObject({ status: 'success', repair_depth: 1, declared: ['openssl'] });
  expect(r.phantom_check).toEqual({ openssl: 'needed' });
  expect(r.confirmation!.phantom.broke.openssl).toMatchObject({ how: 'build-failed' });
  expect(r.confirmation!.phantom.broke.openssl!.excerpt).toMatch(/undefined reference|EVP_|ld returned/);
  expect(r.confirmation!.bloat).toEqual({ unsupported: expect.stringContaining('D2 is D1') });
}, 600000);

test("Java p_13, confirmed after the study finished (the command's workflow): commons-lang3 is unneeded as a declaration and as an installed artifact; the record is updated in place", async () => {
  const s = study('confirm-java', 'java', 'p_13', false);
  const before = await runStudy(s);
  expect(before).toMatchObject({ status: 'success', declared: ['commons-lang3', 'gson'] });
  expect(before.traced).toEqual(['gson']);
  expect(before.phantom_check).toBeUndefined();
  const summary = await h.server.client.workflow.execute<typeof confirmStudyWorkflow>('confirmStudyWorkflow', { workflowId: confirmStudyId(s.name), taskQueue: QUEUES.cpu, args: [{ study: s, maxTrials: 6 }] });
  expect(summary.progress.counts).toEqual({ confirmed: 1, skipped: 0, error: 0 });
  const [after] = await studyRecords(h.database.db, s.name);
  expect(after).toMatchObject({ ...before, phantom_check: { 'commons-lang3': 'unneeded' }, bloat_check: { 'commons-lang3': 'unneeded' } });
  expect(after!.confirmation).toMatchObject({ baseline: { reproduced: true }, trials: 3, phantom: { broke: {}, untried: [] }, bloat: { broke: {}, untried: [] } });
  // A second run skips what is confirmed already.
  const again = await h.server.client.workflow.execute<typeof confirmStudyWorkflow>('confirmStudyWorkflow', { workflowId: confirmStudyId(s.name), taskQueue: QUEUES.cpu, args: [{ study: s, maxTrials: 6 }] });
  expect(again.progress.counts).toEqual({ confirmed: 0, skipped: 1, error: 0 });
}, 900000);
