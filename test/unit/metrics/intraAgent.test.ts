import { intraAgentAgreement } from '../../../src/metrics/intraAgent';
import type { InstanceRecord } from '../../../src/domain/instance';
import { failed, instances, record } from './records';

const trials = (task: string, sets: string[][], over: Partial<InstanceRecord> = {}) =>
  sets.map((declared, i) => record({ task, trial: i + 1, declared, ...over }));

describe('M6 intra-agent agreement', () => {
  it('mean pairwise Jaccard per task, then mean and median over tasks; union and core sizes', () => {
    const rows = intraAgentAgreement(
      instances(
        ...trials('p_01', [['a', 'b'], ['a', 'b'], ['a', 'b']]),
        ...trials('p_02', [['a'], ['b'], ['a', 'b']]),
        ...trials('p_03', [[], [], []]),
      ),
    );
    expect(rows).toEqual([
      {
        agent: 'claude',
        language: 'python',
        trials: 3,
        tasks: 3,
        jaccard_mean: (1 + (0 + 0.5 + 0.5) / 3 + 1) / 3,
        jaccard_median: 1,
        unanimous: 2,
        ucr: 2 / 3,
        union_mean: (2 + 2 + 0) / 3,
        core_mean: (2 + 0 + 0) / 3,
      },
    ]);
  });

  it('counts only tasks where every trial succeeded, and leaves out tasks missing a trial', () => {
    const rows = intraAgentAgreement(
      instances(
        ...trials('p_01', [['a'], ['a'], ['a']]),
        record({ task: 'p_02', trial: 1, declared: ['a'] }),
        record({ task: 'p_02', trial: 2, declared: ['a'] }),
        record({ task: 'p_03', trial: 1 }),
        record({ task: 'p_03', trial: 2 }),
        failed({ task: 'p_03', trial: 3 }),
      ),
    );
    expect(rows[0]).toMatchObject({ trials: 3, tasks: 1, unanimous: 1, jaccard_mean: 1 });
  });

  it('leaves out a task whose trial ended in an infrastructure error', () => {
    const records = [
      ...trials('p_01', [['a'], ['a'], ['a']]),
      ...trials('p_02', [['a'], ['b']]),
      record({ task: 'p_02', trial: 3, status: 'error', error: { kind: 'docker', message: 'daemon gone' } }),
    ];
    expect(intraAgentAgreement(instances(...records))[0]).toMatchObject({ trials: 3, tasks: 1 });
  });

  it('has no rows for agents with a single trial; tasks 0 gives null means', () => {
    expect(intraAgentAgreement(instances(record({ agent: 'codex' })))).toEqual([]);
    const rows = intraAgentAgreement(instances(record({ trial: 1 }), failed({ trial: 2 })));
    expect(rows[0]).toMatchObject({ tasks: 0, jaccard_mean: null, jaccard_median: null, ucr: null, union_mean: null, core_mean: null });
  });

  it('works for two trials', () => {
    const rows = intraAgentAgreement(instances(...trials('p_01', [['a', 'b'], ['b', 'c']])));
    expect(rows[0]).toMatchObject({ trials: 2, tasks: 1, jaccard_mean: 1 / 3, union_mean: 3, core_mean: 1, unanimous: 0 });
  });
});
