import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileBytes, fileContent, MAX_PROJECT_BYTES, type ProjectFiles, validateProjectFiles } from '../domain/files';

export interface ReadProjectResult {
  files: ProjectFiles;
  /**
   * Entries left out: files larger than the per-file limit, symbolic links, FIFOs, sockets, hard links,
   * and the files past the project limit (see `tooLarge`). Binary files are kept (see domain/files.ts).
   */
  unreadable: string[];
  /**
   * The hard-linked files among them: regular files whose inode has more than one name (st_nlink > 1).
   * Another name may be a host file outside root (a hard link is as hostile as a symbolic link), so
   * none is read, wherever its other names are.
   */
  hardLinked: string[];
  /** The bytes of every regular file counted, read or not (those past the project limit included). */
  totalBytes: number;
  /**
   * Whether the files together pass maxProjectBytes: the files past the limit (in walk order) are then
   * not read, and are listed in `overLimit` (and `unreadable`).
   */
  tooLarge: boolean;
  overLimit: string[];
}

/**
 * Bytes read between two yields to the event loop. The files are read synchronously: an asynchronous
 * open, stat, read and close each wait for the thread pool and then the event loop, which was most of
 * a small recording's read time (about 1.3 ms for three files idle, several under load, against
 * 0.1 ms); yielding after each MiB keeps a large project from holding up heartbeats and other activities.
 */
const YIELD_EVERY_BYTES = 1024 * 1024;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Every regular file under root (text as its text, a binary encoded as domain/files.ts says), keyed by relative POSIX path in sorted order. `skip` sees
 * relative paths of files and folders; a skipped folder is not entered. Symbolic links are never
 * followed and hard-linked files are never read, so nothing outside root is read. Each file is opened
 * without following links and checked on its open descriptor, so a swap after the listing gains nothing.
 */
export async function readProjectDir(
  root: string,
  skip: (relPath: string, isDir: boolean) => boolean = () => false,
  maxFileBytes = Infinity,
  maxProjectBytes = MAX_PROJECT_BYTES,
): Promise<ReadProjectResult> {
  const files = new Map<string, string>();
  const unreadable: string[] = [];
  const hardLinked: string[] = [];
  const overLimit: string[] = [];
  let totalBytes = 0;
  let sinceYield = 0;

  async function walk(dir: string, prefix: string): Promise<void> {
    const entries = fs.readdirSync(dir, { withFileTypes: true });
    for (const entry of entries) {
      const rel = prefix + entry.name;
      if (entry.isDirectory()) {
        if (!skip(rel, true)) await walk(path.join(dir, entry.name), rel + '/');
      } else if (skip(rel, false)) {
        continue;
      } else if (entry.isFile()) {
        const read = readRegularBytes(path.join(dir, entry.name), maxFileBytes, maxProjectBytes - totalBytes);
        if ('bytes' in read) {
          totalBytes += read.bytes.length;
          files.set(rel, fileContent(read.bytes));
          sinceYield += read.bytes.length;
          if (sinceYield >= YIELD_EVERY_BYTES) {
            sinceYield = 0;
            await yieldToEventLoop();
          }
        } else {
          unreadable.push(rel);
          if (read.refused === 'hard link') hardLinked.push(rel);
          if (read.refused === 'project limit') {
            totalBytes += read.size;
            overLimit.push(rel);
          }
        }
      } else {
        unreadable.push(rel);
      }
    }
  }

  await walk(root, '');
  const sorted: ProjectFiles = Object.fromEntries([...files.keys()].sort().map((p) => [p, files.get(p)!]));
  return {
    files: sorted,
    unreadable: unreadable.sort(),
    hardLinked: hardLinked.sort(),
    totalBytes,
    tooLarge: overLimit.length > 0,
    overLimit: overLimit.sort(),
  };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The UTF-8 text of a regular file that has one name only, not read through a link; why not otherwise. */
export function readRegularFile(file: string, maxFileBytes: number): { text: string } | { refused: 'hard link' | 'unreadable' } {
  const read = readRegularBytes(file, maxFileBytes);
  if ('refused' in read) return { refused: read.refused === 'hard link' ? 'hard link' : 'unreadable' };
  try {
    return { text: utf8.decode(read.bytes) };
  } catch {
    return { refused: 'unreadable' };
  }
}

/**
 * The bytes of a regular file that has one name only, not read through a link; why not otherwise.
 * A file bigger than `budget` (what is left of the project limit) is not read: its size is told.
 */
export function readRegularBytes(
  file: string,
  maxFileBytes: number,
  budget = Infinity,
): { bytes: Buffer } | { refused: 'hard link' | 'unreadable' } | { refused: 'project limit'; size: number } {
  let fd: number;
  try {
    // O_NOFOLLOW: a symbolic link swapped in since the listing fails; O_NONBLOCK: so does a FIFO, without hanging.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    return { refused: 'unreadable' };
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { refused: 'unreadable' };
    if (stat.nlink > 1) return { refused: 'hard link' };
    if (stat.size > maxFileBytes) return { refused: 'unreadable' };
    if (stat.size > budget) return { refused: 'project limit', size: stat.size };
    // Only the bytes stat counted: a file that grows meanwhile cannot push past the limit.
    const bytes = Buffer.alloc(stat.size);
    let length = 0;
    while (length < bytes.length) {
      const bytesRead = fs.readSync(fd, bytes, length, bytes.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return { bytes: bytes.subarray(0, length) };
  } catch {
    return { refused: 'unreadable' };
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes files under root, creating folders (a binary as its bytes); paths are checked first so nothing lands outside root. */
export async function writeProjectDir(root: string, files: ProjectFiles): Promise<void> {
  validateProjectFiles(files);
  for (const [rel, content] of Object.entries(files)) {
    const target = path.join(root, ...rel.split('/'));
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.writeFile(target, fileBytes(content));
  }
}
