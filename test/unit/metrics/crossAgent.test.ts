import { cdrMacro, crossAgentAgreement } from '../../../src/metrics/crossAgent';
import { failed, instances, record } from './records';

describe('M5 cross-agent agreement', () => {
  it('Jaccard per agent pair over tasks where both succeeded, CDR the share with J = 0', () => {
    const rows = crossAgentAgreement(
      instances(
        record({ agent: 'codex', task: 'p_01', declared: ['a', 'b'] }),
        record({ agent: 'claude', task: 'p_01', declared: ['b', 'c'] }),
        record({ agent: 'codex', task: 'p_02', declared: ['x'] }),
        record({ agent: 'claude', task: 'p_02', declared: ['y'] }),
      ),
    );
    expect(rows).toEqual([
      { language: 'python', pair: 'claude-codex', n: 2, jaccard_mean: 1 / 6, cdr: 0.5 },
      { language: 'python', pair: 'all', n: 2, jaccard_mean: 1 / 6, cdr: 0.5 },
    ]);
  });

  it('counts two empty declarations as agreeing (J = 1)', () => {
    const rows = crossAgentAgreement(
      instances(record({ agent: 'a', declared: [] }), record({ agent: 'b', declared: [] })),
    );
    expect(rows[0]).toMatchObject({ pair: 'a-b', n: 1, jaccard_mean: 1, cdr: 0 });
  });

  it('skips a task an agent lacks or failed, for that agent\'s pairs only', () => {
    const rows = crossAgentAgreement(
      instances(
        record({ agent: 'a', task: 'p_01', declared: ['x'] }),
        record({ agent: 'b', task: 'p_01', declared: ['x'] }),
        record({ agent: 'c', task: 'p_01', declared: ['y'] }),
        record({ agent: 'a', task: 'p_02', declared: ['x'] }),
        record({ agent: 'b', task: 'p_02', declared: ['x'] }),
        failed({ agent: 'c', task: 'p_02', declared: ['x'] }),
        record({ agent: 'a', task: 'p_03', declared: ['x'] }),
      ),
    );
    expect(rows.map((r) => [r.pair, r.n, r.jaccard_mean, r.cdr])).toEqual([
      ['a-b', 2, 1, 0],
      ['a-c', 1, 0, 1],
      ['b-c', 1, 0, 1],
      ['all', 4, 0.5, 0.5],
    ]);
  });

  it('keeps a pair with no common successful task, with null rates', () => {
    const rows = crossAgentAgreement(instances(record({ agent: 'a', task: 'p_01' }), record({ agent: 'b', task: 'p_02' })));
    expect(rows[0]).toEqual({ language: 'python', pair: 'a-b', n: 0, jaccard_mean: null, cdr: null });
  });

  it('has no rows for a language with one agent, and pairs never cross languages', () => {
    const rows = crossAgentAgreement(
      instances(record({ agent: 'a', language: 'java' }), record({ agent: 'b', language: 'python' })),
    );
    expect(rows).toEqual([]);
  });

  it('CDR macro average is the mean of the languages\' pooled CDRs', () => {
    const rows = crossAgentAgreement(
      instances(
        record({ agent: 'a', language: 'python', declared: ['x'] }),
        record({ agent: 'b', language: 'python', declared: ['y'] }),
        record({ agent: 'a', language: 'java', task: 'p_01', declared: ['x'] }),
        record({ agent: 'b', language: 'java', task: 'p_01', declared: ['x'] }),
        record({ agent: 'a', language: 'java', task: 'p_02', declared: ['x'] }),
        record({ agent: 'b', language: 'java', task: 'p_02', declared: ['y'] }),
      ),
    );
    expect(rows.filter((r) => r.pair === 'all').map((r) => [r.language, r.cdr])).toEqual([
      ['python', 1],
      ['java', 0.5],
    ]);
    expect(cdrMacro(rows)).toBe(0.75);
    expect(cdrMacro([])).toBeNull();
  });
});
