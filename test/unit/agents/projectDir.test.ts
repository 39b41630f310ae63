import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readProjectDir, writeProjectDir } from '../../../src/agents/projectDir';

describe('projectDir', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'projectdir-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes and reads back nested files in sorted order', async () => {
    await writeProjectDir(dir, { 'src/b.py': 'b', 'a.txt': 'a\n', 'src/pkg/__init__.py': '' });
    const { files, unreadable } = await readProjectDir(dir);
    expect(Object.keys(files)).toEqual(['a.txt', 'src/b.py', 'src/pkg/__init__.py']);
    expect(files['a.txt']).toBe('a\n');
    expect(unreadable).toEqual([]);
  });

  it('refuses to write outside the root', async () => {
    await expect(writeProjectDir(dir, { '../escape.txt': 'x' })).rejects.toThrow(/unsafe project path/);
    expect(fs.existsSync(path.join(dir, '..', 'escape.txt'))).toBe(false);
  });

  it('reports binary files and symbolic links instead of reading them', async () => {
    fs.writeFileSync(path.join(dir, 'ok.txt'), 'ok');
    fs.writeFileSync(path.join(dir, 'a.out'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0xff, 0xfe]));
    fs.symlinkSync('/etc/passwd', path.join(dir, 'link'));
    const { files, unreadable } = await readProjectDir(dir);
    expect(files).toEqual({ 'ok.txt': 'ok' });
    expect(unreadable).toEqual(['a.out', 'link']);
  });

  it('leaves out files over the size limit', async () => {
    await writeProjectDir(dir, { 'small.txt': '12345', 'large.txt': '123456' });
    expect(await readProjectDir(dir, undefined, 5)).toEqual({ files: { 'small.txt': '12345' }, unreadable: ['large.txt'], hardLinked: [] });
  });

  it('does not enter skipped folders', async () => {
    await writeProjectDir(dir, { 'keep.txt': 'k', 'skip/inner.txt': 'x' });
    const { files } = await readProjectDir(dir, (rel, isDir) => isDir && rel === 'skip');
    expect(files).toEqual({ 'keep.txt': 'k' });
  });

  it('refuses a hard link to a file outside the folder, naming it, and reads none of it', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'projectdir-host-'));
    try {
      const host = path.join(outside, 'host-secret.txt');
      fs.writeFileSync(host, 'HOST-SECRET');
      fs.writeFileSync(path.join(dir, 'ok.txt'), 'ok');
      fs.mkdirSync(path.join(dir, 'sub'));
      fs.linkSync(host, path.join(dir, 'sub', 'innocent.txt'));
      const result = await readProjectDir(dir);
      expect(result).toEqual({ files: { 'ok.txt': 'ok' }, unreadable: ['sub/innocent.txt'], hardLinked: ['sub/innocent.txt'] });
      expect(JSON.stringify(result)).not.toContain('HOST-SECRET');
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('refuses both names of a file hard-linked inside the folder: the inode is shared', async () => {
    fs.writeFileSync(path.join(dir, 'a.txt'), 'A');
    fs.linkSync(path.join(dir, 'a.txt'), path.join(dir, 'b.txt'));
    expect(await readProjectDir(dir)).toEqual({ files: {}, unreadable: ['a.txt', 'b.txt'], hardLinked: ['a.txt', 'b.txt'] });
  });

  it('does not hang on a FIFO', async () => {
    const made = spawnSync('mkfifo', [path.join(dir, 'pipe')]);
    if (made.status !== 0) return; // no mkfifo here
    fs.writeFileSync(path.join(dir, 'ok.txt'), 'ok');
    expect(await readProjectDir(dir)).toEqual({ files: { 'ok.txt': 'ok' }, unreadable: ['pipe'], hardLinked: [] });
  });

  it('keeps a "__proto__" file name as an ordinary key', async () => {
    fs.writeFileSync(path.join(dir, '__proto__'), 'p');
    const { files } = await readProjectDir(dir);
    expect(Object.keys(files)).toEqual(['__proto__']);
  });
});
