import { parseInstanceJsonl, validateInstanceRecords } from '../../../src/importers/instanceJsonl';
import { record } from '../metrics/records';

describe('instance records from JSON lines', () => {
  it('parses one record per line and skips blank lines', () => {
    const text = [JSON.stringify(record()), '', JSON.stringify(record({ task: 'p_02' })), ''].join('\n');
    expect(parseInstanceJsonl(text, 'r.jsonl').map((r) => r.task)).toEqual(['p_01', 'p_02']);
  });

  it('names the file, the line and the field of an invalid record', () => {
    const text = [JSON.stringify(record()), JSON.stringify({ ...record(), trial: 0, declared: ['a', 3] })].join('\n');
    expect(() => parseInstanceJsonl(text, 'r.jsonl')).toThrow(/^r\.jsonl line 2: field trial: .*; field declared\.1: /);
  });

  it('names the line of text that is not JSON', () => {
    expect(() => parseInstanceJsonl('{"schema":', 'r.jsonl')).toThrow(/^r\.jsonl line 1: not JSON/);
  });

  it('checks records from the database the same way', () => {
    expect(() => validateInstanceRecords([record(), { ...record(), status: 'maybe' }], 'study s1')).toThrow(
      /^study s1 record 2: field status: /,
    );
  });
});
