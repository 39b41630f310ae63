import { MockActivityEnvironment } from '@temporalio/testing';
import { storeDeclared, storeLayers } from '../../src/activities/extract';
import { createRecordActivities } from '../../src/activities/record';
import type { ProjectFiles } from '../../src/domain/files';
import { finalLayerReads, finalLayers } from '../../src/ecosystems/finalLayers';
import { observationsEndingWith } from '../../src/domain/observations';
import { buildInstanceRecord, recordFingerprint, type InstanceObservations } from '../../src/domain/record';
import { instanceInput } from '../workflows/fakes';
import { useExecutionHarness } from '../helpers/execution';

// An execution extracts D2, D3 and D3-build from its artefacts while they are in memory, and D1 from the
// project where asked: the one way the workflow gets them. What it stores (the artefacts, the project)
// must give exactly the same again, so that a result can be re-scored from the database.
const h = useExecutionHarness();

test('the layers an execution brings are those its stored artefacts and project give again', async () => {
  const files = { 'main.py': 'import six\nprint(six.PY3)\n', 'requirements.txt': 'six==1.16.0\n' };
  const { outcome, filesHash } = await h.execute('layers/replay/python/p_01/1', 'python', files, {}, undefined, { declare: true });
  expect(outcome.success).toBe(true);
  expect(outcome.layers).toMatchObject({ installed: expect.arrayContaining(['six']), traced: ['six'] });
  const want = { installed: true, traced: true };
  const reads = finalLayerReads('python', want);
  const texts = Object.fromEntries(await Promise.all(reads.artefacts.map(async (n) => [n, outcome.artefacts[n] ? await h.blobs.getText(outcome.artefacts[n]!) : null] as const)));
  const project = await h.blobs.getJson<ProjectFiles>(filesHash);
  expect(outcome.layers).toEqual(await storeLayers(h.blobs, finalLayers('python', texts, project, want)));
  const declared = await storeDeclared(h.blobs, 'python', project);
  expect(outcome.declared).toEqual(declared);
  expect(declared).toMatchObject({ names: ['six'], manifestStatus: 'present' });
  // The stored execution does not repeat them: the instance's record keeps them.
  const row = await h.database.db.selectFrom('iterations').select('execution').where('instance_id', '=', 'layers/replay/python/p_01/1').executeTakeFirstOrThrow();
  const stored = (typeof row.execution === 'string' ? JSON.parse(row.execution) : row.execution) as Record<string, unknown>;
  expect(stored).not.toHaveProperty('layers');
  expect(stored).not.toHaveProperty('declared');
}, 300000);

test('an execution that ends its instance stores the record the recording activity would store; one that does not, none', async () => {
  const files = { 'main.py': 'import six\nprint(six.PY3)\n', 'requirements.txt': 'six==1.16.0\n' };
  const observations: InstanceObservations = {
    outcomes: [], firstErrorClass: null, declared: null, installed: null, traced: null, tracedBuild: null, tracedDebianPackages: null, error: null,
    humanIterations: [], gaveUp: false,
  };
  const input = instanceInput('ends-here', { budget: 0 });
  const { outcome } = await h.execute(input.instanceId, 'python', files, {}, undefined, { declare: true, instance: { input, observations } });
  const draft = buildInstanceRecord(input, observationsEndingWith(observations, 0, 0, { ...outcome, recorded: undefined })!);
  expect(outcome.recorded).toEqual({ fingerprint: recordFingerprint(draft) });
  const row = async (id: string) => h.database.db.selectFrom('instances').select(['record', 'status']).where('id', '=', id).executeTakeFirst();
  const byExecution = await row(input.instanceId);
  expect(byExecution).toMatchObject({ status: 'success' });
  const record = (typeof byExecution!.record === 'string' ? JSON.parse(byExecution!.record) : byExecution!.record) as Record<string, unknown>;
  expect(record).toMatchObject({ status: 'success', declared: ['six'], installed: expect.arrayContaining(['six']), traced: ['six'], installed_versions: expect.objectContaining({ six: '1.16.0' }) });
  // Stored in the same statement as the execution it ends with.
  const iteration = await h.database.db.selectFrom('iterations').select('execution').where('instance_id', '=', input.instanceId).executeTakeFirstOrThrow();
  expect(iteration.execution).toMatchObject({ success: true });

  // The recording activity, given the same draft, stores the very same record.
  const again = instanceInput('ends-here-again', { budget: 0 });
  await new MockActivityEnvironment().run(createRecordActivities({ db: h.database.db, blobs: h.blobs }).recordInstance, { input: again, record: { ...draft, study: again.study } });
  const byActivity = await row(again.instanceId);
  const other = (typeof byActivity!.record === 'string' ? JSON.parse(byActivity!.record) : byActivity!.record) as Record<string, unknown>;
  expect({ ...other, study: input.study }).toEqual(record);

  // A failure with a Repair left ends nothing: the workflow goes on, and nothing is stored for the instance.
  const later = instanceInput('ends-later', { budget: 1 });
  const failed = await h.execute(later.instanceId, 'python', { 'main.py': 'import six\n' }, {}, undefined, { declare: true, instance: { input: later, observations } });
  expect(failed.outcome.success).toBe(false);
  expect(failed.outcome.recorded).toBeUndefined();
  expect(await row(later.instanceId)).toBeUndefined();
}, 300000);
