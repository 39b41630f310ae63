import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { hygieneListing, judgeWorkspace } from '../../../../src/agents/confined/workspaceHygiene';

describe('what in an agent workspace is not the project', () => {
  it('leaves out any folder holding pyvenv.cfg, whatever its name, and the caches known by name', () => {
    const listing = ['mark ./env/pyvenv.cfg', 'prune ./node_modules', 'prune ./src/__pycache__', 'mark ./build/CMakeCache.txt', 'dirmark ./target/maven-status', 'large ./data.bin', ''].join('\n');
    const h = judgeWorkspace(listing);
    expect(h.exclude).toEqual(['./build', './data.bin', './env', './node_modules', './src/__pycache__', './target']);
    expect(h.notes).toEqual(expect.arrayContaining(['./env: a virtual environment', './build: a CMake build folder', './target: Maven\'s build output']));
    expect(h.notes.some((n) => n.startsWith('./data.bin: larger than 5 MiB'))).toBe(true);
  });

  it('a marker at the workspace root leaves the project alone', () => {
    expect(judgeWorkspace('mark ./pyvenv.cfg\n').exclude).toEqual([]);
  });

  it('a folder inside one left out is not listed again', () => {
    expect(judgeWorkspace('mark ./venv/pyvenv.cfg\nprune ./venv/lib/__pycache__\n').exclude).toEqual(['./venv']);
  });

  it('the listing command finds them in a real folder (find, as the sandbox runs it)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hygiene-'));
    try {
      for (const f of ['main.py', 'requirements.txt', 'myenv/pyvenv.cfg', 'myenv/lib/site.py', '.pytest_cache/v', 'pkg/__pycache__/a.pyc']) {
        fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
        fs.writeFileSync(path.join(dir, f), 'x');
      }
      const out = execFileSync('bash', ['-c', hygieneListing()], { cwd: dir, encoding: 'utf8' });
      expect(judgeWorkspace(out).exclude).toEqual(['./.pytest_cache', './myenv', './pkg/__pycache__']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
