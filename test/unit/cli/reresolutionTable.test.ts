import { reresolutionSummaryText, reresolutionTable } from '../../../src/cli/reresolutionTable';
import { diffInstalledVersions } from '../../../src/domain/installedDiff';
import { reresolutionSummary, type ReresolutionRecord } from '../../../src/domain/reresolution';

const record = (task: string, over: Partial<ReresolutionRecord>): ReresolutionRecord => ({
  schema: 'envgap.reresolution/v1',
  instance_id: `s/replay/python/${task}/1`,
  study: 's',
  agent: 'replay',
  language: 'python',
  task,
  resolved_on: '2026-12-03',
  recorded_at: '2026-12-03T10:00:00Z',
  originally: { recorded_at: '2026-01-02T03:04:05Z', resolve_as_of: null },
  status: 'same',
  installs: true,
  runs: true,
  failed_step: null,
  error_class: null,
  error_hash: null,
  log_hash: 'h',
  installed_then: { a: '1' },
  installed_now: { a: '1' },
  diff: diffInstalledVersions({ a: '1' }, { a: '1' }),
  ...over,
});

test('one row per instance, the instances with no result after them; the summary in shares', () => {
  const records = [
    record('p_01', { status: 'changed', originally: { recorded_at: null, resolve_as_of: '2023-06-01' }, installed_now: { a: '2' }, diff: diffInstalledVersions({ a: '1' }, { a: '2', b: '0.1' }) }),
    record('p_02', {}),
    record('p_03', { status: 'uninstallable', installs: false, runs: false, failed_step: 'install', error_class: 'MissingDep', installed_now: null, diff: null }),
  ];
  const table = reresolutionTable(records, ['s/replay/python/p_04/1']);
  expect(table).toMatch(/p_01\s+1\s+changed\s+yes\s+yes\s+as of 2023-06-01\s+a 1->2 \+b 0\.1/);
  expect(table).toMatch(/p_02\s+1\s+same\s+yes\s+yes\s+2026-01-02\s+-/);
  expect(table).toMatch(/p_03\s+1\s+uninstallable\s+no \(install, MissingDep\)\s+-/);
  expect(table).toMatch(/p_04\s+1\s+error\s+.*no result/);
  const text = reresolutionSummaryText('2026-12-03', reresolutionSummary(records), 1);
  expect(text).toContain('re-resolved on 2026-12-03: 3 final manifests of successful instances (1 more with no result: harness errors)');
  expect(text).toContain('stopped installing: 1 (33.3%)');
  expect(text).toContain('still install, D2 changed: 1 (33.3%)');
  expect(text).toContain('no longer as they were (either): 66.7%');
});
