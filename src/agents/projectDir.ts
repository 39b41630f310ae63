import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { type ProjectFiles, validateProjectFiles } from '../domain/files';

export interface ReadProjectResult {
  files: ProjectFiles;
  /** Entries left out: files that are not UTF-8 text or are larger than the limit, symbolic links, sockets. */
  unreadable: string[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Every regular UTF-8 file under root, keyed by relative POSIX path in sorted order. `skip` sees
 * relative paths of files and folders; a skipped folder is not entered. Symbolic links are never
 * followed, so nothing outside root is read.
 */
export async function readProjectDir(
  root: string,
  skip: (relPath: string, isDir: boolean) => boolean = () => false,
  maxFileBytes = Infinity,
): Promise<ReadProjectResult> {
  const files = new Map<string, string>();
  const unreadable: string[] = [];

  async function walk(dir: string, prefix: string): Promise<void> {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      const rel = prefix + entry.name;
      if (entry.isDirectory()) {
        if (!skip(rel, true)) await walk(path.join(dir, entry.name), rel + '/');
      } else if (skip(rel, false)) {
        continue;
      } else if (entry.isFile()) {
        const file = path.join(dir, entry.name);
        if ((await fs.stat(file)).size > maxFileBytes) {
          unreadable.push(rel);
          continue;
        }
        const bytes = await fs.readFile(file);
        try {
          files.set(rel, utf8.decode(bytes));
        } catch {
          unreadable.push(rel);
        }
      } else {
        unreadable.push(rel);
      }
    }
  }

  await walk(root, '');
  const sorted: ProjectFiles = Object.fromEntries([...files.keys()].sort().map((p) => [p, files.get(p)!]));
  return { files: sorted, unreadable: unreadable.sort() };
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
