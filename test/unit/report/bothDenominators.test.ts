import type { InstanceRecord } from '../../../src/domain/instance';
import { reportSections, type Table } from '../../../src/report';
import { allProtocolRecords } from '../../helpers/reportRecords';

const table = (items: { kind: string; id: string }[], id: string) => items.find((i) => i.id === id) as Table;

function record(over: Partial<InstanceRecord>): InstanceRecord {
  return {
    schema: 'envgap.instance/v1', study: 's', agent: 'claude', language: 'cpp', task: 'p_01', trial: 1, domain: 'Security', status: 'success',
    first_attempt_success: true, repair_depth: 0, first_error_class: null, declared: [], installed: [], traced: [], traced_build: null, stdlib_sufficient: false, ...over,
  };
}

describe('the report under both denominators', () => {
  const records = [
    record({ task: 'p_01' }),
    record({ task: 'p_02', first_attempt_success: false, repair_depth: 1, first_error_class: 'SystemLib' }),
    record({ task: 'p_03', status: 'error', first_attempt_success: false, repair_depth: null, installed: null, traced: null, error: { kind: 'docker', message: 'gone' } }),
  ];
  const [gap] = reportSections({ instances: records, readme: [], readiness: [] });

  it('a table of the rates a harness fault changes, left out beside counted as failures, with the difference in points', () => {
    const t = table(gap.items, 'both-denominators');
    expect(t.head).toEqual(['metric', 'group', 'faults', 'rate', 'faults left out', 'faults as failures', 'difference']);
    expect(t.rows).toContainEqual(['M1-M4, M7 cell', 'claude cpp', '1', 'final_sr', '100.0%', '66.7%', '−33.3 pts']);
    expect(t.rows).toContainEqual(['M1-M4, M7 cell', 'claude cpp', '1', 'sr0', '50.0%', '33.3%', '−16.7 pts']);
    expect(t.rows).toContainEqual(['M8', 'claude cpp', '1', 'slar', '100.0%', '50.0%', '−50.0 pts']);
    expect(t.rows.map((r) => r[3])).not.toContain('precision');
    expect(t.caption).toContain('1 harness faults');
  });

  it('Table 6 shows SLAR and EGAR beside their second denominator; the summary the success rates with faults', () => {
    const t = table(gap.items, 'table-6-environment-gap');
    expect(t.head).toEqual(['agent', 'Fail', 'SysLib', 'SLAR', 'SLAR, faults as failures', 'Rec.', 'EGAR', 'EGAR, faults as failures']);
    expect(t.rows[0][4]).toBe('50.0%');
    expect(gap.summary).toContain('cpp SR0 50.0% (33.3% with faults as failures)');
  });

  it('without a fault, the table is empty and the summary as before', () => {
    const [clean] = reportSections({ instances: records.slice(0, 2), readme: [], readiness: [] });
    expect(table(clean.items, 'both-denominators').rows).toEqual([]);
    expect(clean.summary).toContain('cpp SR0 50.0%.');
  });

  it('README and readiness tables carry the second denominator too', async () => {
    const all = await allProtocolRecords();
    const [, readme, readiness] = reportSections(all);
    const r = table(readme.items, 'readme-table');
    expect(r.head).toEqual(['agent', 'READMEs', 'type P', 'type R', 'type F1', 'type F1, faults as failures', 'desc acc', 'fix acc', 'Pass@1', 'Pass@1, faults as failures', 'judge']);
    expect(r.rows[0]).toHaveLength(r.head.length);
    expect(table(readiness.items, 'readiness-table').caption).toContain('harness faults (errors) counted as failures');
  });
});
