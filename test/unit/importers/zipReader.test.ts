import * as fs from 'node:fs';
import { bufferSource, findEntry, readEntry, ZIP_ZSTD, zipEntries, type ZipSource } from '../../../src/importers/zipReader';
import { buildZip } from '../../helpers/inspectEval';

const text = (src: ZipSource, name: string, decompress = {}) => readEntry(src, findEntry(zipEntries(src, 'a.zip'), name)!, 'a.zip', { maxBytes: 1 << 20, decompress }).toString('utf8');

describe('zipReader', () => {
  it('reads stored and deflated entries, in order, with a comment after the directory', () => {
    const src = bufferSource(buildZip([{ name: 'header.json', data: '{"a":1}' }, { name: 'samples/1_epoch_1.json', data: 'x'.repeat(5000), method: 'store' }], { comment: 'made by a test' }));
    expect(zipEntries(src, 'a.zip').map((e) => [e.name, e.method, e.size])).toEqual([['header.json', 8, 7], ['samples/1_epoch_1.json', 0, 5000]]);
    expect(text(src, 'header.json')).toBe('{"a":1}');
    expect(text(src, 'samples/1_epoch_1.json')).toHaveLength(5000);
  });

  it('reads ZIP64 archives (sizes and offsets in the extra field, the ZIP64 end record)', () => {
    const src = bufferSource(buildZip([{ name: 'a', data: 'first' }, { name: 'b', data: 'second' }], { zip64: true }));
    expect(zipEntries(src, 'a.zip').map((e) => [e.name, e.size])).toEqual([['a', 5], ['b', 6]]);
    expect(text(src, 'b')).toBe('second');
  });

  it('takes the last of two entries of one name, as Inspect supersedes a rewritten sample', () => {
    const src = bufferSource(buildZip([{ name: 's.json', data: 'old' }, { name: 's.json', data: 'new' }]));
    expect(text(src, 's.json')).toBe('new');
  });

  it('hands methods other than stored and deflated to the given decompressors, and names the method where none is given', () => {
    const zip = buildZip([{ name: 's.json', data: 'hello', method: 'store' }]);
    zip.writeUInt16LE(ZIP_ZSTD, 8); // the local header's method
    zip.writeUInt16LE(ZIP_ZSTD, 30 + 6 + 5 + 10); // the central entry's
    const src = bufferSource(zip);
    expect(() => text(src, 's.json')).toThrow('a.zip: s.json is compressed with method 93 (Zstandard), which this reader cannot decompress');
    const zstd = jest.fn((b: Buffer) => b);
    expect(text(src, 's.json', { [ZIP_ZSTD]: zstd })).toBe('hello');
    expect(zstd).toHaveBeenCalledWith(Buffer.from('hello'), 5);
  });

  it('refuses what is not a ZIP archive, a damaged entry and an encrypted one', () => {
    expect(() => zipEntries(bufferSource(Buffer.from('{"eval": {}}')), 'log.json')).toThrow('log.json: not a ZIP archive (no end of central directory record)');
    const zip = buildZip([{ name: 'a', data: 'some text to deflate' }]);
    const body = 30 + 1;
    const bad = Buffer.from(zip);
    bad[body + 2] = bad[body + 2]! ^ 0xff;
    expect(() => text(bufferSource(bad), 'a')).toThrow(/a\.zip: a (does not inflate|is \d+ bytes once decompressed|fails its CRC-32 check)/);
    const locked = Buffer.from(zip);
    locked.writeUInt16LE(0x801, locked.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 8);
    expect(() => zipEntries(bufferSource(locked), 'a.zip')).toThrow('a.zip: a is encrypted');
    expect(() => zipEntries(bufferSource(zip.subarray(0, zip.length - 30)), 'a.zip')).toThrow('not a ZIP archive');
  });

  it('refuses an entry larger than the caller reads', () => {
    const src = bufferSource(buildZip([{ name: 'big', data: Buffer.alloc(10), method: 'store' }]));
    expect(() => readEntry(src, zipEntries(src, 'a.zip')[0]!, 'a.zip', { maxBytes: 4 })).toThrow('a.zip: big is 10 bytes, over the 4 read');
  });

  // A log Inspect itself wrote, where one is given (e.g. inspect_ai's tests/log/test_eval_log/log_read_sample.eval).
  const real = process.env.ENVGAP_INSPECT_EVAL;
  (real ? it : it.skip)('reads a log Inspect wrote (ENVGAP_INSPECT_EVAL)', () => {
    const src = bufferSource(fs.readFileSync(real!));
    const names = zipEntries(src, real!).map((e) => e.name);
    expect(names).toContain('header.json');
    expect(JSON.parse(text(src, 'header.json')).eval.task).toEqual(expect.any(String));
  });
});
