import * as zlib from 'node:zlib';

/**
 * A small ZIP reader (PKWARE APPNOTE 6.3): the central directory, ZIP64 included, and each entry's
 * data, stored or deflated; other methods are handed to the caller's decompressors (Inspect writes
 * Zstandard, method 93, since 0.3.206). It reads through `read(offset, length)`, so an archive is
 * never held whole. Encrypted entries and multi-disk archives are refused.
 */
export interface ZipSource {
  size: number;
  read(offset: number, length: number): Buffer;
}

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  crc32: number;
  /** Where the local header is. */
  localOffset: number;
}

export const ZIP_STORED = 0;
export const ZIP_DEFLATED = 8;
export const ZIP_ZSTD = 93;

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX32 = 0xffffffff;

export class ZipError extends Error {}

export function bufferSource(buf: Buffer): ZipSource {
  return { size: buf.length, read: (offset, length) => buf.subarray(offset, Math.min(buf.length, offset + length)) };
}

function u64(b: Buffer, at: number): number {
  const v = b.readBigUInt64LE(at);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipError('a ZIP64 size or offset beyond 2^53');
  return Number(v);
}

/** The central directory's entries in order; where a name repeats, the later entry is the one that counts (as Inspect rewrites a sample). */
export function zipEntries(src: ZipSource, where: string): ZipEntry[] {
  const tailLength = Math.min(src.size, 22 + 0xffff);
  const tail = src.read(src.size - tailLength, tailLength);
  let at = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD && i + 22 + tail.readUInt16LE(i + 20) <= tail.length) {
      at = i;
      break;
    }
  }
  if (at < 0) throw new ZipError(`${where}: not a ZIP archive (no end of central directory record)`);
  if (tail.readUInt16LE(at + 4) !== 0 || tail.readUInt16LE(at + 6) !== 0) throw new ZipError(`${where}: a multi-disk ZIP archive`);
  let count = tail.readUInt16LE(at + 10);
  let cdSize = tail.readUInt32LE(at + 12);
  let cdOffset = tail.readUInt32LE(at + 16);
  if (count === 0xffff || cdSize === MAX32 || cdOffset === MAX32) {
    const eocdAt = src.size - tailLength + at;
    if (eocdAt < 20) throw new ZipError(`${where}: a ZIP64 archive without its locator`);
    const locator = src.read(eocdAt - 20, 20);
    if (locator.readUInt32LE(0) !== ZIP64_LOCATOR) throw new ZipError(`${where}: a ZIP64 archive without its locator`);
    const rec = src.read(u64(locator, 8), 56);
    if (rec.length < 56 || rec.readUInt32LE(0) !== ZIP64_EOCD) throw new ZipError(`${where}: the ZIP64 end of central directory record is not where its locator says`);
    count = u64(rec, 32);
    cdSize = u64(rec, 40);
    cdOffset = u64(rec, 48);
  }
  if (cdOffset + cdSize > src.size) throw new ZipError(`${where}: the central directory lies beyond the file (truncated?)`);
  const cd = src.read(cdOffset, cdSize);
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let n = 0; n < count; n++) {
    if (p + 46 > cd.length || cd.readUInt32LE(p) !== CENTRAL) throw new ZipError(`${where}: central directory entry ${n} is damaged`);
    const flags = cd.readUInt16LE(p + 8);
    const nameLength = cd.readUInt16LE(p + 28);
    const extraLength = cd.readUInt16LE(p + 30);
    const commentLength = cd.readUInt16LE(p + 32);
    const name = cd.toString(flags & 0x800 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLength);
    const entry: ZipEntry = { name, method: cd.readUInt16LE(p + 10), crc32: cd.readUInt32LE(p + 16), compressedSize: cd.readUInt32LE(p + 20), size: cd.readUInt32LE(p + 24), localOffset: cd.readUInt32LE(p + 42) };
    if (flags & 0x1) throw new ZipError(`${where}: ${name} is encrypted`);
    // ZIP64 extended information: 8-byte values for the fields that read 0xFFFFFFFF, in this order.
    const extra = cd.subarray(p + 46 + nameLength, p + 46 + nameLength + extraLength);
    for (let e = 0; e + 4 <= extra.length; e += 4 + extra.readUInt16LE(e + 2)) {
      if (extra.readUInt16LE(e) !== 0x0001) continue;
      let v = e + 4;
      for (const field of ['size', 'compressedSize', 'localOffset'] as const) {
        if (entry[field] !== MAX32) continue;
        if (v + 8 > e + 4 + extra.readUInt16LE(e + 2)) throw new ZipError(`${where}: ${name}'s ZIP64 field is short`);
        entry[field] = u64(extra, v);
        v += 8;
      }
    }
    entries.push(entry);
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The last entry of that name (a name written again supersedes the earlier one). */
export function findEntry(entries: readonly ZipEntry[], name: string): ZipEntry | undefined {
  for (let i = entries.length - 1; i >= 0; i--) if (entries[i]!.name === name) return entries[i];
  return undefined;
}

/** Decompressors for methods other than stored and deflated, by method number. */
export type Decompressors = Partial<Record<number, (data: Buffer, size: number) => Buffer>>;

/** An entry's bytes, decompressed and checked against its size and CRC-32; at most `maxBytes`. */
export function readEntry(src: ZipSource, entry: ZipEntry, where: string, opts: { maxBytes: number; decompress?: Decompressors }): Buffer {
  if (entry.size > opts.maxBytes) throw new ZipError(`${where}: ${entry.name} is ${entry.size} bytes, over the ${opts.maxBytes} read`);
  const local = src.read(entry.localOffset, 30);
  if (local.length < 30 || local.readUInt32LE(0) !== LOCAL) throw new ZipError(`${where}: ${entry.name}'s local header is not where the central directory says`);
  const start = entry.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  const data = src.read(start, entry.compressedSize);
  if (data.length < entry.compressedSize) throw new ZipError(`${where}: ${entry.name} is cut short (truncated file?)`);
  let out: Buffer;
  if (entry.method === ZIP_STORED) out = data;
  else if (entry.method === ZIP_DEFLATED) {
    try {
      out = zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size) });
    } catch (err) {
      throw new ZipError(`${where}: ${entry.name} does not inflate: ${(err as Error).message}`);
    }
  } else {
    const fn = opts.decompress?.[entry.method];
    if (!fn) throw new ZipError(`${where}: ${entry.name} is compressed with method ${entry.method}${entry.method === ZIP_ZSTD ? ' (Zstandard)' : ''}, which this reader cannot decompress`);
    out = fn(data, entry.size);
  }
  if (out.length !== entry.size) throw new ZipError(`${where}: ${entry.name} is ${out.length} bytes once decompressed, not the ${entry.size} its header says`);
  // zlib.crc32 came with Node 20.15; without it the size check above stands alone.
  if (typeof zlib.crc32 === 'function' && zlib.crc32(out) !== entry.crc32) throw new ZipError(`${where}: ${entry.name} fails its CRC-32 check`);
  return out;
}
