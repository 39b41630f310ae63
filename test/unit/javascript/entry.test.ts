import { findNodeEntry, nodeArgsOfScript } from '../../../src/ecosystems/javascript/entry';
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
    expect(findNodeEntry({ 'package.json': pkg({ scripts: { start: 'node ./server.js' } }) })).toEqual(['server.js']);
  });

  it('keeps node options of the start script', () => {
    expect(findNodeEntry({ 'package.json': pkg({ scripts: { start: 'node --max-old-space-size=4096 -r dotenv/config index.js' } }) })).toEqual([
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
