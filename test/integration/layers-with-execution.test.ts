import { MockActivityEnvironment } from '@temporalio/testing';
import { createExtractActivities } from '../../src/activities/extract';
import { useExecutionHarness } from '../helpers/execution';

// An execution extracts D2, D3 and D3-build from its artefacts while they are in memory, and D1 from the
// project where asked; the extraction activities, reading the same back from the database, must find exactly the same.
const h = useExecutionHarness();

test('the layers an execution brings are those the extraction activities find in its stored artefacts and project', async () => {
  const files = { 'main.py': 'import six\nprint(six.PY3)\n', 'requirements.txt': 'six==1.16.0\n' };
  const { outcome, filesHash } = await h.execute('layers/replay/python/p_01/1', 'python', files, {}, undefined, { declare: true });
  expect(outcome.success).toBe(true);
  expect(outcome.layers).toMatchObject({ installed: expect.arrayContaining(['six']), traced: ['six'] });
  const extracted = await new MockActivityEnvironment().run(createExtractActivities({ blobs: h.blobs }).extractLayers, {
    language: 'python' as const,
    filesHash,
    artefacts: outcome.artefacts,
    installed: true,
    traced: true,
  });
  expect(outcome.layers).toEqual(extracted);
  const declared = await new MockActivityEnvironment().run(createExtractActivities({ blobs: h.blobs }).declaredDependencies, { language: 'python' as const, filesHash });
  expect(outcome.declared).toEqual(declared);
  expect(declared).toMatchObject({ names: ['six'], manifestStatus: 'present' });
  // The stored execution does not repeat them: the instance's record keeps them.
  const row = await h.database.db.selectFrom('iterations').select('execution').where('instance_id', '=', 'layers/replay/python/p_01/1').executeTakeFirstOrThrow();
  const stored = (typeof row.execution === 'string' ? JSON.parse(row.execution) : row.execution) as Record<string, unknown>;
  expect(stored).not.toHaveProperty('layers');
  expect(stored).not.toHaveProperty('declared');
}, 300000);
