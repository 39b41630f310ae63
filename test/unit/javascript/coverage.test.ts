import { codeLineOffsets, parseV8Scripts, projectScriptPaths, v8ProjectCoverage, type V8Script } from '../../../src/ecosystems/javascript/coverage';

// What NODE_V8_COVERAGE writes for `node index.js` of this project (block coverage, offsets in the source).
const INDEX = [
  "const lib = require('./lib');", // 0
  '// a comment',
  'if (process.argv.length > 2) {',
  "  console.log('never');",
  '}',
  'lib.greet();',
  '',
].join('\n');
const LIB = ['function greet() {', "  console.log('hi');", '}', 'function unused() {', '  return 1;', '}', 'module.exports = { greet, unused };', ''].join('\n');
const at = (source: string, text: string) => source.indexOf(text);

function script(url: string, ranges: [number, number, number][][]): V8Script {
  return { url, functions: ranges.map((rs) => ({ ranges: rs.map(([startOffset, endOffset, count]) => ({ startOffset, endOffset, count })) })) };
}

const files = { 'index.js': INDEX, 'lib.js': LIB, 'build/gen.js': 'console.log(1);\n', 'node_modules/x/index.js': 'x();\n', 'README.md': '# x\n', 'logo.png': 'envgap:base64:AAAA' };

test('the project scripts are its .js/.mjs/.cjs files outside node_modules', () => {
  expect(projectScriptPaths(files)).toEqual(['build/gen.js', 'index.js', 'lib.js']);
});

test('lines of code leave out blank and comment-only lines', () => {
  const source = 'a();\n\n// x\n/* one\n two */\n/* inline */\n  b();\n';
  expect(codeLineOffsets(source)).toEqual([0, source.indexOf('b();')]);
});

test('a line ran where its first character did; a file with no report ran not at all', () => {
  const index = script('file:///work/index.js', [[[0, INDEX.length, 1], [at(INDEX, '{'), at(INDEX, 'lib.greet'), 0]]]);
  const lib = script('file:///work/lib.js', [
    [[0, LIB.length, 1]],
    [[0, at(LIB, 'function unused'), 1]],
    [[at(LIB, 'function unused'), at(LIB, 'module.exports'), 0]],
  ]);
  const npm = script('file:///usr/lib/node_modules/npm/index.js', [[[0, 10, 1]]]);
  // index.js: 5 lines of code, 3 ran (not the branch's body and its brace); lib.js: 7 lines, 4 ran (not unused's three); build/gen.js: 1 line, none.
  expect(v8ProjectCoverage([index, lib, npm], files)).toEqual({ tool: 'v8', unit: 'line', total: 13, executed: 7, share: 0.538, files: 3, files_executed: 2 });
});

test('reports of several processes add up: a line ran where it ran in any', () => {
  const none = script('file:///work/build/gen.js', [[[0, 16, 0]]]);
  const once = script('file:///work/build/gen.js', [[[0, 16, 1]]]);
  expect(v8ProjectCoverage([none, once], { 'build/gen.js': 'console.log(1);\n' })).toMatchObject({ total: 1, executed: 1, share: 1 });
  expect(v8ProjectCoverage([], { 'README.md': 'x' })).toBeNull();
});

test('the extract is read line by line, a line cut short skipped', () => {
  const text = `${JSON.stringify(script('file:///work/a.js', [[[0, 1, 1]]]))}\n{"url": "file:///work/b.js", "functions": [\n{"reports":2}\n`;
  expect(parseV8Scripts(text).map((s) => s.url)).toEqual(['file:///work/a.js']);
});
