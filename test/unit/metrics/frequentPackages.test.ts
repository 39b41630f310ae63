import { frequentPackages } from '../../../src/metrics/frequentPackages';
import { failed, instances, record } from './records';

describe('most frequent phantom and hidden packages', () => {
  const group = instances(
    record({ task: 'p_01', declared: ['yargs', 'lodash'], traced: ['lodash', 'ansi-styles'] }),
    record({ task: 'p_02', declared: ['yargs', 'chalk'], traced: ['chalk', 'ansi-styles', 'has-flag'] }),
    record({ task: 'p_03', declared: ['sharp'], traced: ['has-flag'] }),
    failed({ task: 'p_04', declared: ['never-counted'] }),
    record({ task: 'p_05', language: 'java', declared: ['gson'], traced: [] }),
  );

  it('counts D1 \\ D3 and D3 \\ D1 over successful instances, per language, ties by name', () => {
    expect(frequentPackages(group, 5)).toEqual([
      { language: 'python', kind: 'phantom', rank: 1, package: 'yargs', count: 2 },
      { language: 'python', kind: 'phantom', rank: 2, package: 'sharp', count: 1 },
      { language: 'python', kind: 'hidden', rank: 1, package: 'ansi-styles', count: 2 },
      { language: 'python', kind: 'hidden', rank: 2, package: 'has-flag', count: 2 },
      { language: 'java', kind: 'phantom', rank: 1, package: 'gson', count: 1 },
    ]);
  });

  it('keeps only the top entries', () => {
    expect(frequentPackages(group, 1).map((r) => r.package)).toEqual(['yargs', 'ansi-styles', 'gson']);
  });
});
