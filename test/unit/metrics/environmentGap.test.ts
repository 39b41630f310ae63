import { environmentGap } from '../../../src/metrics/environmentGap';
import { failed, instances, record, repaired } from './records';

describe('M8 environment gap (C++)', () => {
  it('SLAR over first-attempt failures, EGAR over the system-library ones', () => {
    const cpp = { language: 'cpp' as const };
    const rows = environmentGap(
      instances(
        repaired(1, { ...cpp, task: 'p_01', first_error_class: 'SystemLib' }),
        repaired(2, { ...cpp, task: 'p_02', first_error_class: 'MissingDep' }),
        failed({ ...cpp, task: 'p_03', first_error_class: 'SystemLib' }),
        repaired(1, { ...cpp, task: 'p_04', first_error_class: 'Build' }),
        record({ ...cpp, task: 'p_05' }),
        repaired(1, { language: 'python', task: 'p_06', first_error_class: 'SystemLib' }),
      ),
    );
    expect(rows).toEqual([{ agent: 'claude', failures: 4, syslib: 3, slar: 0.75, recovered: 2, egar: 2 / 3 }]);
  });

  it('EGAR is undefined with no system-library failure, SLAR with no failure', () => {
    const rows = environmentGap(
      instances(
        repaired(1, { agent: 'gemini', language: 'cpp', first_error_class: 'Runtime' }),
        record({ agent: 'codex', language: 'cpp' }),
      ),
    );
    expect(rows).toEqual([
      { agent: 'codex', failures: 0, syslib: 0, slar: null, recovered: 0, egar: null },
      { agent: 'gemini', failures: 1, syslib: 0, slar: 0, recovered: 0, egar: null },
    ]);
  });
});
