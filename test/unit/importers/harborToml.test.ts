import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseToml } from '../../../src/importers/harborToml';

const FIXTURE_TASKS = path.resolve(__dirname, '../../fixtures/harbor/tasks');

describe("task.toml's TOML", () => {
  it('reads tables, dotted and quoted keys, arrays of tables, inline tables and every scalar', () => {
    const text = [
      '# a comment',
      'schema_version = "1.4"  # trailing comment',
      'plain = \'C:\\path\\no escapes\'',
      'escaped = "tab\\tquote\\" \\u00e9 \\U0001F600"',
      'ints = [1, +2, -3, 1_000, 0x1F, 0o17, 0b101]',
      'floats = [1.5, -0.25, 6.02e23, 1e-3, inf, -inf]',
      'flags = [true, false]',
      'nested = [[1, 2], ["a"],]',
      'multi = """',
      'one \\',
      '    two',
      'three"""',
      "raw = '''",
      "no \\escape'''",
      'site."dotted.key".x = 1',
      '[task]',
      'name = "org/name"',
      'authors = [{ name = "A", email = "a@x" }, { name = "B" }]',
      '[verifier]',
      'env = { API = "x", inner.deep = 2 }',
      '[environment.extra]',
      'k = "v"',
      '[[steps]]',
      'name = "first"',
      '[steps.agent]',
      'timeout_sec = 10.0',
      '[[steps]]',
      'name = "second"',
    ].join('\n');
    expect(parseToml(text)).toEqual({
      schema_version: '1.4',
      plain: 'C:\\path\\no escapes',
      escaped: 'tab\tquote" é 😀',
      ints: [1, 2, -3, 1000, 31, 15, 5],
      floats: [1.5, -0.25, 6.02e23, 0.001, Infinity, -Infinity],
      flags: [true, false],
      nested: [[1, 2], ['a']],
      multi: 'one two\nthree',
      raw: 'no \\escape',
      site: { 'dotted.key': { x: 1 } },
      task: { name: 'org/name', authors: [{ name: 'A', email: 'a@x' }, { name: 'B' }] },
      verifier: { env: { API: 'x', inner: { deep: 2 } } },
      environment: { extra: { k: 'v' } },
      steps: [{ name: 'first', agent: { timeout_sec: 10 } }, { name: 'second' }],
    });
  });

  it.each([
    ['a = 1\na = 2', 'task.toml:2: key "a" is given twice'],
    ['[t]\n[t]', 'task.toml:2: table [t] is defined twice'],
    ['a = "open', 'task.toml:1: a string is not closed on its line'],
    ['a = 1 b = 2', 'task.toml:1: unexpected "b" after a value'],
    ['d = 2026-11-30', 'task.toml:1: dates and times are not read here (2026-11-30)'],
    ['x = 01', 'task.toml:1: not a number: 01'],
    ['t = { a = 1 }\n[t]', 'task.toml:2: table [t] is defined twice'],
    ['a = [1, 2', 'task.toml:1: an array'],
    ['= 1', 'task.toml:1: unexpected "="'],
  ])('refuses %j, naming the line', (text, message) => {
    expect(() => parseToml(text)).toThrow(message);
  });

  // The fixture's task.toml files, read as Python's tomllib (Harbor's own reader) reads them.
  const tomllib = spawnSync('python3', ['-c', 'import tomllib']).status === 0;
  (tomllib ? it : it.skip)('reads the fixture tasks as tomllib does', () => {
    for (const task of fs.readdirSync(FIXTURE_TASKS)) {
      const file = path.join(FIXTURE_TASKS, task, 'task.toml');
      const py = spawnSync('python3', ['-c', 'import json,sys,tomllib; print(json.dumps(tomllib.load(open(sys.argv[1],"rb"))))', file], { encoding: 'utf8' });
      expect(py.status).toBe(0);
      expect(parseToml(fs.readFileSync(file, 'utf8'))).toEqual(JSON.parse(py.stdout));
    }
  });
});
