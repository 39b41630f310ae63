import * as fs from 'node:fs';
import { parseCsv, parseCsvRecords } from '../../../src/catalog/csv';
import { envgapData } from '../../helpers/data';

describe('parseCsv', () => {
  it('splits plain fields and records', () => {
    expect(parseCsv('a,b,c\n1,2,3\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
  });

  it('keeps commas, line breaks and doubled quotes inside quoted fields', () => {
    expect(parseCsv('id,text\np_01,"Reads CSV, computes ""stats""\nand more"\n')).toEqual([
      ['id', 'text'],
      ['p_01', 'Reads CSV, computes "stats"\nand more'],
    ]);
  });

  it('accepts CRLF line breaks and a last record without a line break', () => {
    expect(parseCsv('a,b\r\n1,"x\r\ny"\r\n2,3')).toEqual([
      ['a', 'b'],
      ['1', 'x\r\ny'],
      ['2', '3'],
    ]);
  });

  it('keeps empty fields, including quoted empty ones', () => {
    expect(parseCsv('a,,""\n,\n')).toEqual([
      ['a', '', ''],
      ['', ''],
    ]);
  });

  it('ignores a byte-order mark', () => {
    expect(parseCsv('\ufeffa,b\n')).toEqual([['a', 'b']]);
  });

  it('returns no records for empty input', () => {
    expect(parseCsv('')).toEqual([]);
  });

  it('rejects an unterminated quoted field', () => {
    expect(() => parseCsv('a\n"open,field\n')).toThrow(/record 2: unterminated quoted field/);
  });

  it('rejects text after a closing quote and a quote inside an unquoted field', () => {
    expect(() => parseCsv('"a"b\n')).toThrow(/after closing quote/);
    expect(() => parseCsv('a"b\n')).toThrow(/quote inside an unquoted field/);
  });
});

describe('parseCsvRecords', () => {
  it('keys rows by the header and skips blank lines', () => {
    expect(parseCsvRecords('id,title\np_01,"A, B"\n\np_02,C\n\n')).toEqual([
      { id: 'p_01', title: 'A, B' },
      { id: 'p_02', title: 'C' },
    ]);
  });

  it('rejects a row whose field count differs from the header', () => {
    expect(() => parseCsvRecords('a,b\n1,2,3\n')).toThrow('CSV record 2: 3 fields, header has 2');
  });

  it('parses the published prompt overview', () => {
    const records = parseCsvRecords(fs.readFileSync(envgapData('prompts', 'prompt_overview.csv'), 'utf8'));
    expect(records).toHaveLength(50);
    expect(records[0].description).toContain('Reads CSV files, computes statistics');
    expect(records.every((r) => /^p_\d\d$/.test(r.prompt_id))).toBe(true);
  });
});
