import { successByDomain, weakestDomains } from '../../../src/metrics/domains';
import { failed, instances, record, repaired } from './records';

describe('success by domain', () => {
  const rows = successByDomain(
    instances(
      record({ task: 'p_01', domain: 'Networking' }),
      repaired(2, { task: 'p_02', domain: 'Networking' }),
      failed({ task: 'p_03', domain: 'Compression' }),
      record({ task: 'p_03', language: 'java', domain: 'Compression' }),
      repaired(1, { task: 'p_04', domain: 'Crypto' }),
      record({ task: 'p_05', domain: null }),
    ),
  );

  it('pools each agent\'s languages per domain', () => {
    expect(rows).toEqual([
      { agent: 'claude', domain: 'Compression', n: 2, sr0: 0.5, final_sr: 0.5 },
      { agent: 'claude', domain: 'Crypto', n: 1, sr0: 0, final_sr: 1 },
      { agent: 'claude', domain: 'Networking', n: 2, sr0: 0.5, final_sr: 1 },
      { agent: 'claude', domain: null, n: 1, sr0: 1, final_sr: 1 },
    ]);
  });

  it('lists every domain tied at the lowest first-attempt rate', () => {
    expect(weakestDomains(rows)).toEqual([{ agent: 'claude', sr0: 0, domains: ['Crypto'] }]);
    const tied = successByDomain(instances(failed({ task: 'p_01', domain: 'B' }), failed({ task: 'p_02', domain: 'A' })));
    expect(weakestDomains(tied)).toEqual([{ agent: 'claude', sr0: 0, domains: ['A', 'B'] }]);
  });
});
