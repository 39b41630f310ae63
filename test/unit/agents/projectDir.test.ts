import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readProjectDir, writeProjectDir } from '../../../src/agents/projectDir';
import { fileBytes, isBinaryContent } from '../../../src/domain/files';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082',
  'hex',
);
// A TrueType font begins 00 01 00 00 (NUL bytes) followed by its table count.
const FONT = Buffer.concat([Buffer.from([0, 1, 0, 0, 0, 4, 0, 0x40]), Buffer.from('glyf\0\0\0\0')]);

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

  it('keeps binary files encoded, and reports symbolic links instead of reading them', async () => {
    fs.writeFileSync(path.join(dir, 'ok.txt'), 'ok');
    fs.writeFileSync(path.join(dir, 'a.out'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0xff, 0xfe]));
    fs.symlinkSync('/etc/passwd', path.join(dir, 'link'));
    const { files, unreadable } = await readProjectDir(dir);
    expect(Object.keys(files)).toEqual(['a.out', 'ok.txt']);
    expect(files['ok.txt']).toBe('ok');
    expect(fileBytes(files['a.out']).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0xff, 0xfe]))).toBe(true);
    expect(unreadable).toEqual(['link']);
  });

  it('keeps a PNG and a font byte for byte, and writes them back as bytes', async () => {
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'assets', 'logo.png'), PNG);
    fs.writeFileSync(path.join(dir, 'assets', 'font.ttf'), FONT);
    const { files, unreadable, totalBytes, tooLarge } = await readProjectDir(dir);
    expect(unreadable).toEqual([]);
    expect(tooLarge).toBe(false);
    expect(totalBytes).toBe(PNG.length + FONT.length);
    expect(isBinaryContent(files['assets/logo.png'])).toBe(true);
    expect(isBinaryContent(files['assets/font.ttf'])).toBe(true);
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'projectdir-copy-'));
    try {
      await writeProjectDir(copy, files);
      expect(fs.readFileSync(path.join(copy, 'assets', 'logo.png')).equals(PNG)).toBe(true);
      expect(fs.readFileSync(path.join(copy, 'assets', 'font.ttf')).equals(FONT)).toBe(true);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

  it('stops reading at the project limit, telling the total and the files past it', async () => {
    fs.writeFileSync(path.join(dir, 'a.bin'), Buffer.alloc(6, 0xff));
    fs.writeFileSync(path.join(dir, 'b.bin'), Buffer.alloc(6, 0xff));
    fs.writeFileSync(path.join(dir, 'c.txt'), 'abc');
    const result = await readProjectDir(dir, undefined, Infinity, 10);
    expect(result.tooLarge).toBe(true);
    expect(result.totalBytes).toBe(15);
    expect(result.overLimit.length).toBeGreaterThan(0);
    expect(result.unreadable).toEqual(result.overLimit);
    expect(Object.keys(result.files).length + result.overLimit.length).toBe(3);
    const within = await readProjectDir(dir, undefined, Infinity, 15);
    expect(within).toMatchObject({ tooLarge: false, totalBytes: 15, overLimit: [], unreadable: [] });
  });

  it('leaves out files over the size limit', async () => {
    await writeProjectDir(dir, { 'small.txt': '12345', 'large.txt': '123456' });
    expect(await readProjectDir(dir, undefined, 5)).toMatchObject({ files: { 'small.txt': '12345' }, unreadable: ['large.txt'], hardLinked: [] });
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
      expect(result).toMatchObject({ files: { 'ok.txt': 'ok' }, unreadable: ['sub/innocent.txt'], hardLinked: ['sub/innocent.txt'] });
      expect(JSON.stringify(result)).not.toContain('HOST-SECRET');
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('refuses both names of a file hard-linked inside the folder: the inode is shared', async () => {
    fs.writeFileSync(path.join(dir, 'a.txt'), 'A');
    fs.linkSync(path.join(dir, 'a.txt'), path.join(dir, 'b.txt'));
    expect(await readProjectDir(dir)).toEqual({ files: {}, unreadable: ['a.txt', 'b.txt'], hardLinked: ['a.txt', 'b.txt'], totalBytes: 0, tooLarge: false, overLimit: [] });
  });

  it('does not hang on a FIFO', async () => {
    const made = spawnSync('mkfifo', [path.join(dir, 'pipe')]);
    if (made.status !== 0) return; // no mkfifo here
    fs.writeFileSync(path.join(dir, 'ok.txt'), 'ok');
    expect(await readProjectDir(dir)).toMatchObject({ files: { 'ok.txt': 'ok' }, unreadable: ['pipe'], hardLinked: [] });
  });

  it('keeps a "__proto__" file name as an ordinary key', async () => {
    fs.writeFileSync(path.join(dir, '__proto__'), 'p');
    const { files } = await readProjectDir(dir);
    expect(Object.keys(files)).toEqual(['__proto__']);
  });

  it('reads a small project without giving up the event loop, and yields while it reads a large one', async () => {
    fs.writeFileSync(path.join(dir, 'small.txt'), 'small');
    let ran = false;
    setImmediate(() => (ran = true));
    await readProjectDir(dir);
    expect(ran).toBe(false);

    for (let i = 0; i < 3; i++) fs.writeFileSync(path.join(dir, `big${i}.txt`), 'x'.repeat(1024 * 1024));
    let turns = 0;
    const tick = () => {
      turns++;
      if (!done) setImmediate(tick);
    };
    let done = false;
    setImmediate(tick);
    const { files, totalBytes } = await readProjectDir(dir);
    done = true;
    expect(Object.keys(files)).toEqual(['big0.txt', 'big1.txt', 'big2.txt', 'small.txt']);
    expect(totalBytes).toBe(3 * 1024 * 1024 + 5);
    // Once after each MiB read: other work (heartbeats, other activities) ran meanwhile.
    expect(turns).toBeGreaterThanOrEqual(3);
  });
});
