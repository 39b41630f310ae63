import { InstanceRecord } from '../../../src/domain/instance';
import type { Provenance } from '../../../src/domain/provenance';
import { buildInstanceRecord, type InstanceObservations } from '../../../src/domain/record';
import { DEFAULT_LIMITS, type InstanceInput } from '../../../src/domain/study';

const input: InstanceInput = {
  instanceId: 's/a/python/p_01/1', study: 's', agent: { kind: 'replay', name: 'a', path: '/x' }, language: 'python',
  task: { id: 'p_01', title: 'T', domain: 'Data Processing' }, trial: 1, budget: 10, limits: DEFAULT_LIMITS,
};
const base: InstanceObservations = { outcomes: [true], firstErrorClass: null, declared: ['six'], installed: ['six'], traced: ['six'], tracedBuild: null, tracedDebianPackages: null, error: null };
const provenance: Provenance = {
  image: { tag: 'envgap/python:0123abcd', id: 'sha256:aa', recipe_hash: '0123abcd' },
  tool_versions: { python: '3.11.2' },
  envgap: { version: '0.1.0', commit: null },
  catalog_hash: null,
  package_indexes: {},
  recorded_at: '2026-12-01T22:00:00.000Z',
  worker: 'envgap-worker-1@host',
};

test('the final execution\'s provenance and the blob of D2 versions go into the record draft', () => {
  const r = buildInstanceRecord(input, { ...base, provenance, installedVersions: { blob: 'h', count: 1 } });
  expect(r.provenance).toEqual(provenance);
  expect(r.installed_versions).toEqual({ blob: 'h', count: 1 });
});

test('no D2, no installed_versions; no provenance observed, none recorded', () => {
  const r = buildInstanceRecord(input, { ...base, installed: null, installedVersions: { blob: 'h', count: 1 } });
  expect(r).not.toHaveProperty('installed_versions');
  expect(r).not.toHaveProperty('provenance');
});

test('records from before the fields still parse, and the new fields are checked where present', () => {
  const old = buildInstanceRecord(input, base);
  expect(InstanceRecord.parse(old)).toEqual(old);
  const withBoth = { ...old, provenance, installed_versions: { six: '1.16.0', tinyjson: null } };
  expect(InstanceRecord.parse(withBoth)).toEqual(withBoth);
  expect(InstanceRecord.safeParse({ ...old, provenance: { ...provenance, worker: 3 } }).success).toBe(false);
});
