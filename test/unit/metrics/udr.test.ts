import { unnecessaryDependencyRate, udrMacro } from '../../../src/metrics/udr';
import type { CellMetrics } from '../../../src/metrics/report';
import { failed, instances, record } from './records';

describe('M7 unnecessary dependency rate', () => {
  it('share of successful instances on stdlib-sufficient tasks that declared something', () => {
    const group = instances(
      record({ task: 'p_01', stdlib_sufficient: true, declared: ['requests'] }),
      record({ task: 'p_02', stdlib_sufficient: true, declared: [] }),
      record({ task: 'p_03', stdlib_sufficient: true, declared: ['a', 'b'] }),
      record({ task: 'p_04', stdlib_sufficient: false, declared: ['a'] }),
      record({ task: 'p_05', stdlib_sufficient: null, declared: ['a'] }),
      failed({ task: 'p_06', stdlib_sufficient: true, declared: ['a'] }),
    );
    expect(unnecessaryDependencyRate(group)).toEqual({ udr_n: 3, udr: 2 / 3 });
  });

  it('uses declared_count for n1 where present', () => {
    const group = instances(record({ stdlib_sufficient: true, declared: [], declared_count: 2 }));
    expect(unnecessaryDependencyRate(group).udr).toBe(1);
  });

  it('is null with no eligible instance', () => {
    expect(unnecessaryDependencyRate(instances(record()))).toEqual({ udr_n: 0, udr: null });
  });

  it('macro average per agent over the languages where it is defined', () => {
    const cell = (agent: string, udr: number | null) => ({ agent, udr }) as CellMetrics;
    expect(udrMacro([cell('b', 1), cell('a', 0.5), cell('a', null), cell('a', 0), cell('c', null)])).toEqual([
      { agent: 'a', languages: 2, udr: 0.25 },
      { agent: 'b', languages: 1, udr: 1 },
      { agent: 'c', languages: 0, udr: null },
    ]);
  });
});

describe('standard-library sufficiency where records leave it null', () => {
  const { withStdlibSufficiency } = require('../../../src/metrics/stdlibSufficiency') as typeof import('../../../src/metrics/stdlibSufficiency');
  const base = {
    schema: 'envgap.instance/v1' as const, study: 's', language: 'python' as const, trial: 1, domain: null, first_attempt_success: true,
    repair_depth: 0, first_error_class: null, installed: [], traced: [], traced_build: null,
  };
  test('a task counts as sufficient when any successful run declared nothing; annotations are kept', () => {
    const records = [
      { ...base, agent: 'a', task: 'p_01', status: 'success' as const, declared: [], stdlib_sufficient: null },
      { ...base, agent: 'b', task: 'p_01', status: 'success' as const, declared: ['six'], stdlib_sufficient: null },
      { ...base, agent: 'a', task: 'p_02', status: 'success' as const, declared: ['six'], stdlib_sufficient: null },
      { ...base, agent: 'a', task: 'p_03', status: 'failed' as const, declared: [], stdlib_sufficient: null },
      { ...base, agent: 'a', task: 'p_04', status: 'success' as const, declared: ['x'], stdlib_sufficient: true },
    ];
    expect(withStdlibSufficiency(records).map((r) => r.stdlib_sufficient)).toEqual([true, true, false, false, true]);
  });
});

describe('M7 eligibility from the catalog\'s a-priori annotation', () => {
  const { computeMetrics } = require('../../../src/metrics') as typeof import('../../../src/metrics');
  const { record } = require('./records') as typeof import('./records');
  // Three Python tasks, every record leaving stdlib_sufficient null; p_01 succeeded with an empty manifest.
  const records = [
    record({ task: 'p_01', stdlib_sufficient: null, declared: [] }),
    record({ task: 'p_02', stdlib_sufficient: null, declared: ['requests'] }),
    record({ task: 'p_03', stdlib_sufficient: null, declared: ['numpy'] }),
  ];

  it('without it, the rule over the runs: only p_01 is eligible', () => {
    expect(computeMetrics(records).cells[0]).toMatchObject({ udr_n: 1, udr: 0 });
    expect(computeMetrics(records)).not.toHaveProperty('stdlib_from_catalog');
  });

  it('with it, the annotation decides where it names the task, the rule where it does not', () => {
    // p_02 annotated sufficient (requests was unnecessary), p_01 annotated not; p_03 not named: the rule (declared something: not eligible).
    const report = computeMetrics(records, { stdlibAnnotation: { 'python/p_01': false, 'python/p_02': true, 'java/p_03': true } });
    expect(report.cells[0]).toMatchObject({ udr_n: 1, udr: 1 });
    expect(report.stdlib_from_catalog).toBe(true);
  });

  it('a record\'s own value wins over the annotation', () => {
    const report = computeMetrics([record({ task: 'p_02', stdlib_sufficient: false, declared: ['requests'] })], { stdlibAnnotation: { 'python/p_02': true } });
    expect(report.cells[0]).toMatchObject({ udr_n: 0, udr: null });
  });
});
