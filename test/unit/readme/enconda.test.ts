import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { encondaResultFolder, readEncondaPredictions, writeEncondaPrediction } from '../../../src/readme/enconda';
import { BASE, err, LEVEL0 } from './realInstances';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-enconda-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test("the writer writes upstream's layout, results/<repo>_<instance>/<instance>_errors.json and _setup.sh, and the reader reads it back", () => {
  const answer = { detected_errors: [err('E1', 'pip install inflect', 'wrong package')], setup_script: '#!/bin/bash\npip install inflect\n' };
  const file = writeEncondaPrediction(dir, BASE, answer);
  expect(path.relative(dir, file)).toBe(path.join('jaraco_inflect_jaraco_inflect_error_readme_1', 'jaraco_inflect_error_readme_1_errors.json'));
  const json = JSON.parse(fs.readFileSync(file, 'utf8'));
  expect(json).toEqual({
    repo_name: encondaResultFolder(BASE),
    readme_name: BASE.name,
    errors: [{ error_type: 'E1', error_description: 'wrong package', fix_answer: 'pip install inflect' }],
  });
  writeEncondaPrediction(dir, LEVEL0, { detected_errors: [], setup_script: null });
  const read = readEncondaPredictions(dir);
  expect([...read.keys()].sort()).toEqual([BASE.name, LEVEL0.name].sort());
  expect(read.get(BASE.name)).toMatchObject(answer);
  expect(read.get(LEVEL0.name)).toMatchObject({ detected_errors: [], setup_script: null });
});

test("what upstream's evaluator reads: any subfolder, any .json naming 'error', the instance from readme_name; also the folder above results/", () => {
  const sub = path.join(dir, 'results', 'whatever');
  fs.mkdirSync(sub, { recursive: true });
  fs.writeFileSync(path.join(sub, 'a_ERRORS.json'), JSON.stringify({ repo_name: 'r', readme_name: 'inst_1', errors: [{ error_type: 'E2', error_description: 'd', fix_answer: 'f' }] }));
  fs.writeFileSync(path.join(sub, 'inst_2_errors.json'), JSON.stringify({ errors: [] }));
  fs.writeFileSync(path.join(sub, 'summary.json'), '{"not": "read"}');
  fs.writeFileSync(path.join(sub, 'inst_1_setup.sh'), 'echo hi\n');
  const read = readEncondaPredictions(dir);
  expect([...read.keys()].sort()).toEqual(['inst_1', 'inst_2']);
  expect(read.get('inst_1')).toMatchObject({ detected_errors: [{ error_type: 'E2', error_description: 'd', fix_suggestion: 'f' }], setup_script: 'echo hi\n' });
  expect(read.get('inst_2')!.detected_errors).toEqual([]);
});

test('a bad errors file names the file and the field; two answers for one instance are refused', () => {
  const sub = path.join(dir, 'r');
  fs.mkdirSync(sub);
  const bad = path.join(sub, 'x_errors.json');
  fs.writeFileSync(bad, JSON.stringify({ readme_name: 'x', errors: [{ error_type: 'E1', error_description: 'd' }] }));
  expect(() => readEncondaPredictions(dir)).toThrow(`${bad}: not an EnConda errors file: field errors.0.fix_answer:`);
  fs.writeFileSync(bad, JSON.stringify({ readme_name: 'x', errors: [] }));
  fs.mkdirSync(path.join(dir, 'r2'));
  fs.writeFileSync(path.join(dir, 'r2', 'x_errors.json'), JSON.stringify({ readme_name: 'x', errors: [] }));
  expect(() => readEncondaPredictions(dir)).toThrow(/both answer x$/);
  expect(() => readEncondaPredictions(path.join(dir, 'nope'))).toThrow('predictions folder not found');
});
