import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as zlib from 'node:zlib';
import { findEntry, readEntry, ZIP_ZSTD, zipEntries, type Decompressors, type ZipSource } from './zipReader';

/** The most one sample's JSON (or a whole .json log) may take once decompressed. */
const MAX_JSON_BYTES = 512 * 1024 * 1024;

/** An Inspect log as the importer reads it: the header (eval spec, status) and each sample's JSON, read when asked. */
export interface InspectLog {
  header: unknown;
  /** samples/<id>_epoch_<n>.json names (or positions in a .json log), in the archive's order. */
  sampleNames: string[];
  sample(name: string): unknown;
  close(): void;
}

const CONVERT = 'inspect log convert LOG.eval --to json --output-dir DIR';

/** Zstandard, as Inspect writes it since 0.3.206: Node's own where it has one (22.15+), else the `zstd` program. */
function zstd(where: string): Decompressors {
  const native = (zlib as unknown as { zstdDecompressSync?: (b: Buffer, o?: object) => Buffer }).zstdDecompressSync;
  return {
    [ZIP_ZSTD]: (data, size) => {
      if (native) return native(data, { maxOutputLength: Math.max(1, size) });
      try {
        return execFileSync('zstd', ['-d', '-c', '-q'], { input: data, maxBuffer: size + 1 });
      } catch (err) {
        const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
        throw new Error(`${where}: its samples are Zstandard-compressed (Inspect 0.3.206 and later) and ${missing ? 'neither this Node nor a `zstd` program on PATH can decompress them: install zstd (Debian: apt-get install zstd), or convert the log with `' + CONVERT + '`' : `\`zstd -d\` failed: ${(err as Error).message}`}`);
      }
    },
  };
}

function parseJson(bytes: Buffer, where: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw new Error(`${where}: not JSON: ${(err as Error).message}`);
  }
}

/** Opens an Inspect log: a `.eval` archive (header.json, samples/<id>_epoch_<n>.json), or a `.json` EvalLog with its samples. */
export function openInspectLog(file: string): InspectLog {
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (!st?.isFile()) throw new Error(`${file}: not a file`);
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(4);
    fs.readSync(fd, head, 0, 4, 0);
    if (head.readUInt32LE(0) !== 0x04034b50) {
      if (st.size > MAX_JSON_BYTES) throw new Error(`${file}: neither a .eval archive nor a .json log of at most ${MAX_JSON_BYTES} bytes`);
      const log = parseJson(fs.readFileSync(file), file) as { samples?: unknown } | null;
      if (!log || typeof log !== 'object' || !('eval' in log)) throw new Error(`${file}: not an Inspect log (no "eval" field; a .eval archive starts with a ZIP header)`);
      const samples = Array.isArray(log.samples) ? log.samples : [];
      fs.closeSync(fd);
      return { header: log, sampleNames: samples.map((_, i) => `samples[${i}]`), sample: (name) => samples[Number(/\d+/.exec(name)![0])], close: () => undefined };
    }
    // The archive is read where asked, until close().
    const src: ZipSource = {
      size: st.size,
      read(offset, length) {
        const buf = Buffer.alloc(Math.max(0, Math.min(length, st.size - offset)));
        let n = 0;
        while (n < buf.length) {
          const r = fs.readSync(fd, buf, n, buf.length - n, offset + n);
          if (r === 0) break;
          n += r;
        }
        return buf.subarray(0, n);
      },
    };
    const entries = zipEntries(src, file);
    const decompress = zstd(file);
    const json = (name: string): unknown => {
      const e = findEntry(entries, name);
      if (!e) throw new Error(`${file}: no ${name} in the archive`);
      return parseJson(readEntry(src, e, file, { maxBytes: MAX_JSON_BYTES, decompress }), `${file}: ${name}`);
    };
    // header.json is written when the eval ends; a log still running (or cut off) has only _journal/start.json.
    const header = findEntry(entries, 'header.json') ? json('header.json') : findEntry(entries, '_journal/start.json') ? json('_journal/start.json') : null;
    if (header === null) throw new Error(`${file}: an archive without header.json or _journal/start.json: not an Inspect .eval log`);
    const sampleNames = [...new Set(entries.map((e) => e.name).filter((n) => /^samples\/[^/]+_epoch_\d+\.json$/.test(n)))];
    return { header, sampleNames, sample: json, close: () => fs.closeSync(fd) };
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
}
