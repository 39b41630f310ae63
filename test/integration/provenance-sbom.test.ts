import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { studyRecords } from '../../src/db/instances';
import type { InstanceRecord } from '../../src/domain/instance';
import { Provenance } from '../../src/domain/provenance';
import { DEFAULT_LIMITS, type InstanceInput } from '../../src/domain/study';
import { sbomOfInstance } from '../../src/cli/sbom';
import { QUEUES } from '../../src/workers/queues';
import type { instanceWorkflow } from '../../src/workflows/instance';
import { useProtocolHarness, writeReplayCorpus } from '../helpers/harness';

// A real instance (workflow, container, pip, strace): its record carries the provenance of its final
// execution and D2 with versions, `envgap export` (studyRecords) carries both, and its SBOM validates.
const h = useProtocolHarness();

test('a Python instance: provenance, installed_versions, and a valid CycloneDX SBOM with occurrences', async () => {
  const corpus = writeReplayCorpus('python', 'p_01', [{ 'main.py': 'import six\nprint(six.PY3)\n', 'requirements.txt': 'six==1.16.0\n' }]);
  const input: InstanceInput = {
    instanceId: 'pv/replay/python/p_01/1', study: 'pv', agent: { kind: 'replay', name: 'replay', path: corpus }, language: 'python',
    task: { id: 'p_01', title: 't', domain: 'd' }, trial: 1, budget: 0, limits: { ...DEFAULT_LIMITS, run_timeout_s: 60 },
  };
  const outcome = await h.server.client.workflow.execute<typeof instanceWorkflow>('instanceWorkflow', { workflowId: input.instanceId, taskQueue: QUEUES.cpu, args: [input], workflowExecutionTimeout: '10 minutes' });
  expect(outcome.status).toBe('success');

  const [record] = (await studyRecords(h.database.db, 'pv')) as InstanceRecord[];
  expect(record.traced).toEqual(['six']);
  expect(record.installed_versions).toEqual({ six: '1.16.0' });
  const p = Provenance.parse(record.provenance);
  expect(p.image.tag).toMatch(/^envgap\/python:/);
  expect(p.image.id).toMatch(/^sha256:[0-9a-f]{64}$/);
  expect(p.image.recipe_hash).toBe(p.image.tag.split(':')[1]);
  expect(p.tool_versions).toEqual(expect.objectContaining({ python: expect.stringMatching(/^3\.\d+\.\d+/), pip: expect.stringMatching(/^\d+\.\d+/), strace: expect.stringMatching(/^\d+\.\d+/) }));
  expect(p.tool_versions).not.toHaveProperty('java');
  expect(p.envgap.version).toMatch(/^\d+\.\d+\.\d+/);
  expect(p.catalog_hash).toMatch(/^[0-9a-f]{64}$/);
  expect(p.worker).toMatch(/^envgap-worker-\d+@/);
  expect(Date.parse(p.recorded_at)).toBeGreaterThan(Date.now() - 15 * 60 * 1000);
  for (const url of Object.values(p.package_indexes)) {
    if (!url || !/^[a-z]+:\/\//.test(url)) continue;
    expect(new URL(url).username).toBe('');
    expect(new URL(url).password).toBe('');
  }

  const bom = (await sbomOfInstance(h.database.db, input.instanceId)) as { components: { name: string; purl: string; version?: string; evidence?: { occurrences: { location: string }[] }; properties: { name: string; value: string }[] }[] };
  expect(await new Validation.JsonStrictValidator(Spec.Version.v1dot6).validate(JSON.stringify(bom))).toBeNull();
  const six = bom.components.find((c) => c.name === 'six')!;
  expect(six).toMatchObject({ version: '1.16.0', purl: 'pkg:pypi/six@1.16.0' });
  expect(six.evidence!.occurrences.map((o) => o.location)).toContainEqual(expect.stringMatching(/\/site-packages\/(?:__pycache__\/)?six\.(?:py|cpython-\d+\.pyc)$/));
  expect(six.properties).toContainEqual({ name: 'envgap:traced', value: 'true' });
  // The pip and setuptools of the clean venv are not D2, so not components.
  expect(bom.components.map((c) => c.name)).toEqual(['six']);

  // The commands a user runs: `envgap export` carries both fields; `envgap sbom --out` writes the same BOM.
  const cli = path.resolve(__dirname, '../../bin/envgap.js');
  const env = { ...process.env, DATABASE_URL: h.database.url };
  const exported = execFileSync(process.execPath, [cli, 'export', 'pv'], { encoding: 'utf8', env }).trim().split('\n').map((l) => JSON.parse(l) as InstanceRecord);
  expect(exported).toHaveLength(1);
  expect(exported[0].provenance).toEqual(record.provenance);
  expect(exported[0].installed_versions).toEqual({ six: '1.16.0' });
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-sbom-')), 'bom.json');
  execFileSync(process.execPath, [cli, 'sbom', input.instanceId, '--out', out], { encoding: 'utf8', env });
  const written = fs.readFileSync(out, 'utf8');
  expect(await new Validation.JsonStrictValidator(Spec.Version.v1dot6).validate(written)).toBeNull();
  expect(JSON.parse(written)).toEqual(bom);
}, 600000);
