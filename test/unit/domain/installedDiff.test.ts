import { describeInstalledDiff, diffInstalledVersions, isSameInstalled, namesOnly } from '../../../src/domain/installedDiff';
import { reresolutionStatus, reresolutionSummary } from '../../../src/domain/reresolution';

describe('the diff of two D2 sets', () => {
  test('added, removed and changed versions, each by name', () => {
    const d = diffInstalledVersions(
      { requests: '2.31.0', urllib3: '2.0.2', idna: '3.4', 'charset-normalizer': '3.1.0' },
      { requests: '2.32.5', urllib3: '2.0.2', idna: '3.10', certifi: '2025.1.1', 'charset-normalizer': '3.1.0' },
    );
    expect(d).toEqual({
      added: [{ name: 'certifi', version: '2025.1.1' }],
      removed: [],
      changed: [{ name: 'idna', from: '3.4', to: '3.10' }, { name: 'requests', from: '2.31.0', to: '2.32.5' }],
    });
    expect(isSameInstalled(d)).toBe(false);
    expect(describeInstalledDiff(d)).toBe('idna 3.4->3.10 requests 2.31.0->2.32.5 +certifi 2025.1.1');
  });

  test('the same set is no change, whatever the key order', () => {
    const d = diffInstalledVersions({ b: '1', a: '2' }, { a: '2', b: '1' });
    expect(isSameInstalled(d)).toBe(true);
    expect(describeInstalledDiff(d)).toBe('-');
  });

  test('a version unknown on either side (a record with names only) is no change; a name gone is', () => {
    const d = diffInstalledVersions(namesOnly(['luxon', 'moment']), { luxon: '3.4.4' });
    expect(d).toEqual({ added: [], removed: [{ name: 'moment', version: null }], changed: [] });
    expect(describeInstalledDiff(d)).toBe('-moment');
  });
});

describe('the status and the summary of a re-resolution', () => {
  const same = diffInstalledVersions({ a: '1' }, { a: '1' });
  const changed = diffInstalledVersions({ a: '1' }, { a: '2' });

  test('status: uninstallable where the install fails, else same or changed by D2', () => {
    expect(reresolutionStatus(false, null)).toBe('uninstallable');
    expect(reresolutionStatus(true, same)).toBe('same');
    expect(reresolutionStatus(true, changed)).toBe('changed');
  });

  test('shares of the manifests re-resolved', () => {
    const s = reresolutionSummary([
      { status: 'same', installs: true, runs: true },
      { status: 'changed', installs: true, runs: false },
      { status: 'changed', installs: true, runs: true },
      { status: 'uninstallable', installs: false, runs: false },
    ]);
    expect(s).toEqual({ manifests: 4, uninstallable: 1, changed: 2, same: 1, installs_but_fails: 1, uninstallable_share: 0.25, changed_share: 0.5, drifted_share: 0.75 });
    expect(reresolutionSummary([]).drifted_share).toBeNull();
  });
});
