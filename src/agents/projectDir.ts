import { constants } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { type ProjectFiles, validateProjectFiles } from '../domain/files';

export interface ReadProjectResult {
  files: ProjectFiles;
  /** Entries left out: files that are not UTF-8 text or are larger than the limit, symbolic links, sockets, hard links. */
  unreadable: string[];
  /**
   * The hard-linked files among them: regular files whose inode has more than one name (st_nlink > 1).
   * Another name may be a host file outside root (a hard link is as hostile as a symbolic link), so
   * none is read, wherever its other names are.
   */
  hardLinked: string[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Every regular UTF-8 file under root, keyed by relative POSIX path in sorted order. `skip` sees
 * relative paths of files and folders; a skipped folder is not entered. Symbolic links are never
 * followed and hard-linked files are never read, so nothing outside root is read. Each file is opened
 * without following links and checked on its open descriptor, so a swap after the listing gains nothing.
 */
export async function readProjectDir(
  root: string,
  skip: (relPath: string, isDir: boolean) => boolean = () => false,
  maxFileBytes = Infinity,
): Promise<ReadProjectResult> {
  const files = new Map<string, string>();
  const unreadable: string[] = [];
  const hardLinked: string[] = [];

  async function walk(dir: string, prefix: string): Promise<void> {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      const rel = prefix + entry.name;
      if (entry.isDirectory()) {
        if (!skip(rel, true)) await walk(path.join(dir, entry.name), rel + '/');
      } else if (skip(rel, false)) {
        continue;
      } else if (entry.isFile()) {
        const read = await readRegularFile(path.join(dir, entry.name), maxFileBytes);
        if ('text' in read) {
          files.set(rel, read.text);
        } else {
          unreadable.push(rel);
          if (read.refused === 'hard link') hardLinked.push(rel);
        }
      } else {
        unreadable.push(rel);
      }
    }
  }

  await walk(root, '');
  const sorted: ProjectFiles = Object.fromEntries([...files.keys()].sort().map((p) => [p, files.get(p)!]));
  return { files: sorted, unreadable: unreadable.sort(), hardLinked: hardLinked.sort() };
}

/** The UTF-8 text of a regular file that has one name only, not read through a link; why not otherwise. */
export async function readRegularFile(file: string, maxFileBytes: number): Promise<{ text: string } | { refused: 'hard link' | 'unreadable' }> {
  let handle: fs.FileHandle;
  try {
    // O_NOFOLLOW: a symbolic link swapped in since the listing fails; O_NONBLOCK: so does a FIFO, without hanging.
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return { refused: 'unreadable' };
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { refused: 'unreadable' };
    if (stat.nlink > 1) return { refused: 'hard link' };
    if (stat.size > maxFileBytes) return { refused: 'unreadable' };
    // Only the bytes stat counted: a file that grows meanwhile cannot push past the limit.
    const bytes = Buffer.alloc(stat.size);
    let length = 0;
    while (length < bytes.length) {
      const { bytesRead } = await handle.read(bytes, length, bytes.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return { text: utf8.decode(bytes.subarray(0, length)) };
  } catch {
    return { refused: 'unreadable' };
  } finally {
    await handle.close();
  }
}

/** Writes files under root, creating folders; paths are checked first so nothing lands outside root. */
export async function writeProjectDir(root: string, files: ProjectFiles): Promise<void> {
  validateProjectFiles(files);
  for (const [rel, content] of Object.entries(files)) {
    const target = path.join(root, ...rel.split('/'));
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, content);
  }
}
