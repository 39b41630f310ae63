import { chooseNodeEntry, findNodeEntry, nodeArgsOfScript } from '../../../src/ecosystems/javascript/entry';
import { splitShellWords } from '../../../src/ecosystems/javascript/entryShell';

const pkg = (fields: Record<string, unknown>) => JSON.stringify({ name: 'word-freq', version: '1.0.0', ...fields }, null, 2);

describe('findNodeEntry', () => {
  it('takes package.json main when the file exists', () => {
    expect(findNodeEntry({ 'package.json': pkg({ main: 'src/cli.js' }), 'src/cli.js': '', 'index.js': '' })).toEqual(['src/cli.js']);
    expect(findNodeEntry({ 'package.json': pkg({ main: './app.mjs' }), 'app.mjs': '' })).toEqual(['app.mjs']);
  });

  it('resolves main as node would: with .js appended, or a folder\'s index.js', () => {
    expect(findNodeEntry({ 'package.json': pkg({ main: 'server' }), 'server.js': '' })).toEqual(['server.js']);
    expect(findNodeEntry({ 'package.json': pkg({ main: 'lib' }), 'lib/index.js': '' })).toEqual(['lib/index.js']);
  });

  it('falls back to a `node <file>` start script when main is missing or absent', () => {
    const files = { 'package.json': pkg({ main: 'dist/index.js', scripts: { start: 'node src/main.js --input data.txt', test: 'jest' } }), 'src/main.js': '' };
    expect(findNodeEntry(files)).toEqual(['src/main.js', '--input', 'data.txt']);
    expect(findNodeEntry({ 'package.json': pkg({ scripts: { start: 'node ./server.js' } }), 'server.js': '' })).toEqual(['server.js']);
  });

  it('keeps node options of the start script', () => {
    expect(findNodeEntry({ 'package.json': pkg({ scripts: { start: 'node --max-old-space-size=4096 -r dotenv/config index.js' } }), 'index.js': '' })).toEqual([
      '--max-old-space-size=4096',
      '-r',
      'dotenv/config',
      'index.js',
    ]);
  });

  it('takes a single bin script that exists', () => {
    expect(findNodeEntry({ 'package.json': pkg({ bin: { wordfreq: './bin/wordfreq.js' } }), 'bin/wordfreq.js': '' })).toEqual(['bin/wordfreq.js']);
    expect(findNodeEntry({ 'package.json': pkg({ bin: 'cli.js' }), 'cli.js': '' })).toEqual(['cli.js']);
    expect(findNodeEntry({ 'package.json': pkg({ bin: { a: 'a.js', b: 'b.js' } }), 'a.js': '', 'b.js': '' })).toBeNull();
  });

  it('falls back to conventional files, in order, .mjs and .cjs included', () => {
    expect(findNodeEntry({ 'package.json': pkg({ scripts: { start: 'nodemon index.js' } }), 'app.js': '', 'main.js': '' })).toEqual(['main.js']);
    expect(findNodeEntry({ 'server.js': '', 'src/index.js': '' })).toEqual(['server.js']);
    expect(findNodeEntry({ 'index.mjs': '', 'app.js': '' })).toEqual(['index.mjs']);
    expect(findNodeEntry({ 'src/index.cjs': '' })).toEqual(['src/index.cjs']);
  });

  it('ignores a package.json that is not JSON', () => {
    expect(findNodeEntry({ 'package.json': '{ "main": "x.js", }', 'index.js': '' })).toEqual(['index.js']);
    expect(findNodeEntry({ 'package.json': '[]', 'app.js': '' })).toEqual(['app.js']);
  });

  it('is null when nothing can be run', () => {
    expect(findNodeEntry({ 'package.json': pkg({}), 'lib/util.js': '' })).toBeNull();
    expect(findNodeEntry({})).toBeNull();
  });
});

describe('chooseNodeEntry', () => {
  it('runs the start script when the file it names exists, before main', () => {
    const files = { 'package.json': pkg({ main: 'index.js', scripts: { start: 'node server.js' } }), 'server.js': '', 'index.js': '' };
    expect(chooseNodeEntry(files)).toEqual({ entry: { kind: 'node', args: ['server.js'] }, reason: 'package.json start script `node server.js`' });
    expect(chooseNodeEntry({ 'package.json': pkg({ scripts: { start: 'node /work/server' } }), 'server.js': '' }).entry).toEqual({ kind: 'node', args: ['/work/server'] });
  });

  it('passes over a start script naming a missing file, for main', () => {
    const files = { 'package.json': pkg({ main: 'index.js', scripts: { start: 'node server.js' } }), 'index.js': '', 'lib/util.js': '' };
    expect(chooseNodeEntry(files)).toEqual({
      entry: { kind: 'node', args: ['index.js'] },
      reason: 'start script names server.js, which is absent; package.json main index.js',
    });
  });

  it('without main, falls back to the single top-level script', () => {
    const files = { 'package.json': pkg({ scripts: { start: 'node server.js', test: 'jest' } }), 'wordfreq.js': '', 'jest.config.js': '', 'wordfreq.test.js': '', '.eslintrc.js': '', 'lib/a.js': '' };
    expect(chooseNodeEntry(files)).toEqual({
      entry: { kind: 'node', args: ['wordfreq.js'] },
      reason: 'start script names server.js, which is absent; the only top-level script wordfreq.js',
    });
    const absentMain = chooseNodeEntry({ 'package.json': pkg({ main: 'dist/index.js' }), 'cli.mjs': '' });
    expect(absentMain).toEqual({ entry: { kind: 'node', args: ['cli.mjs'] }, reason: 'package.json main dist/index.js is absent; the only top-level script cli.mjs' });
  });

  it('runs `npm start` for a start script that runs more than node on a file', () => {
    for (const start of ['npm run build && node dist/x.js', 'ts-node src/index.ts', 'NODE_ENV=production node index.js', 'tsx watch src/main.ts']) {
      const choice = chooseNodeEntry({ 'package.json': pkg({ main: 'index.js', scripts: { start } }), 'index.js': '' });
      expect(choice).toEqual({ entry: { kind: 'npm-start', script: start }, reason: `package.json start script \`${start}\` runs more than \`node <file>\`: npm start` });
    }
  });

  it('runs `npm start` for a node start script whose file a prestart script may make', () => {
    const files = { 'package.json': pkg({ scripts: { prestart: 'tsc', start: 'node dist/index.js' } }), 'src/index.ts': '' };
    expect(chooseNodeEntry(files).entry).toEqual({ kind: 'npm-start', script: 'node dist/index.js' });
  });

  it('runs a watched file with node, without watching', () => {
    expect(chooseNodeEntry({ 'package.json': pkg({ scripts: { start: 'nodemon app.js' } }), 'app.js': '' })).toEqual({
      entry: { kind: 'node', args: ['app.js'] },
      reason: 'package.json start script `nodemon app.js` (run with node, without watching)',
    });
    expect(chooseNodeEntry({ 'package.json': pkg({ scripts: { start: 'node --watch -r dotenv/config app.js' } }), 'app.js': '' }).entry).toEqual({
      kind: 'node',
      args: ['-r', 'dotenv/config', 'app.js'],
    });
  });

  it('says why there is no entry', () => {
    const choice = chooseNodeEntry({ 'package.json': pkg({ main: 'x.js' }), 'a.js': '', 'b.js': '' });
    expect(choice.entry).toBeNull();
    expect(choice.reason).toBe('package.json main x.js is absent; no entry point: no usable start script, main or bin, 2 top-level scripts (a.js, b.js), no index/main/app/server/src/index .js/.mjs/.cjs');
  });
});

describe('nodeArgsOfScript', () => {
  it('accepts only plain node commands with a file', () => {
    expect(nodeArgsOfScript('node index.js')).toEqual(['index.js']);
    expect(nodeArgsOfScript('nodejs "src/my app.js" \'a b\'')).toEqual(['src/my app.js', 'a b']);
    expect(nodeArgsOfScript('node --experimental-specifier-resolution=node src/index.js')).toEqual(['--experimental-specifier-resolution=node', 'src/index.js']);
    expect(nodeArgsOfScript('node -e "console.log(1)"')).toBeNull();
    expect(nodeArgsOfScript('node --test')).toBeNull();
    expect(nodeArgsOfScript('node')).toBeNull();
    expect(nodeArgsOfScript('tsc && node dist/index.js')).toBeNull();
    expect(nodeArgsOfScript('NODE_ENV=production node index.js')).toBeNull();
    expect(nodeArgsOfScript('node index.js > out.log')).toBeNull();
    expect(nodeArgsOfScript('ts-node src/index.ts')).toBeNull();
  });
});

describe('splitShellWords', () => {
  it('splits words and removes quotes', () => {
    expect(splitShellWords('  node   a.js "b c"d \'e\'  ')).toEqual(['node', 'a.js', 'b cd', 'e']);
    expect(splitShellWords('')).toEqual([]);
  });

  it('refuses operators, expansions, escapes and open quotes', () => {
    for (const line of ['a | b', 'a; b', 'a && b', 'echo $HOME', 'echo "$HOME"', 'a\\ b', 'echo "open', "echo 'open", 'echo `x`', 'a *.js']) {
      expect(splitShellWords(line)).toBeNull();
    }
  });
});
