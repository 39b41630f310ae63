import * as fs from 'node:fs';
import * as path from 'node:path';
import { declaredDependencies } from '../../../../src/ecosystems/declared';
import { withoutNpmDependencies } from '../../../../src/ecosystems/removal/packageJsonRemoval';

const corpus = path.resolve(__dirname, '../../../../corpus/quickstart/javascript/p_49/1/0/package.json');

describe('package.json without a name', () => {
  test("the quickstart's phantom (moment) goes from dependencies; the rest keeps its order and layout", () => {
    const text = fs.readFileSync(corpus, 'utf8');
    const r = withoutNpmDependencies({ 'package.json': text }, ['moment']);
    expect(r.removed).toEqual(['moment']);
    const out = r.files['package.json']!;
    expect(JSON.parse(out).dependencies).toEqual({ 'cron-parser': '4.9.0' });
    expect(out.endsWith('}\n')).toBe(true);
    expect(out.split('\n')[1]).toBe('  "name": "cron-expression-parser",');
    expect(declaredDependencies('javascript', r.files).names).toEqual(['cron-parser']);
  });

  test('only `dependencies` (D1): a devDependency of the same name stays; four-space indentation kept', () => {
    const text = '{\n    "dependencies": {"a": "1", "b": "2"},\n    "devDependencies": {"a": "1"}\n}';
    const r = withoutNpmDependencies({ 'package.json': text }, ['a', 'c']);
    expect(r).toMatchObject({ removed: ['a'], notFound: ['c'] });
    expect(JSON.parse(r.files['package.json']!)).toEqual({ dependencies: { b: '2' }, devDependencies: { a: '1' } });
    expect(r.files['package.json']!.split('\n')[1]).toMatch(/^ {4}"dependencies"/);
    expect(r.files['package.json']!.endsWith('}')).toBe(true);
  });

  test('invalid JSON, and names npm keeps as written (no normalising), are not found', () => {
    expect(withoutNpmDependencies({ 'package.json': '{' }, ['a'])).toMatchObject({ removed: [], notFound: ['a'] });
    expect(withoutNpmDependencies({ 'package.json': '{"dependencies":{"Left-Pad":"1"}}' }, ['left-pad'])).toMatchObject({ removed: [] });
  });
});
