import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { formatReadmeScoreTable, readmeScoreResult } from '../../../src/cli/readmeScore';
import { writeEncondaPrediction } from '../../../src/readme/enconda';
import { encondaDir, ONLY_E2, SMALL_PREDICTIONS } from './realInstances';

let dir: string;
let predictions: string;
let instances: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-readme-score-'));
  predictions = path.join(dir, 'results');
  for (const [ref, errors] of SMALL_PREDICTIONS) if (errors !== null) writeEncondaPrediction(predictions, ref, { detected_errors: errors, setup_script: 'true\n' });
  instances = path.join(dir, 'instances.txt');
  fs.writeFileSync(instances, SMALL_PREDICTIONS.map(([ref]) => ref.name).join('\n') + '\n');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('scores a predictions folder in EnConda layout against the data set (the numbers of scoring.test.ts)', async () => {
  const s = await readmeScoreResult({ predictions: dir, gold: encondaDir(), judge: 'deterministic', instances });
  expect(s.files).toBe(5);
  expect(s.files_answered).toBe(4);
  expect(s.type).toEqual({ tp: 3, fp: 3, fn: 3, precision: 0.5, recall: 0.5, f1: 0.5 });
  expect(s.fix_accuracy).toBeCloseTo(1.5 / 4, 12);
  expect(s.description_accuracy).toBeNull();
  expect(s.judge).toBe('deterministic');
  const table = formatReadmeScoreTable(s);
  expect(table).toContain('judge: deterministic');
  expect(table).toMatch(/^type\s+3\s+3\s+3\s+0\.500\s+0\.500\s+0\.500$/m);
  expect(table).toMatch(/^E4\s+0\s+1\s+0\s/m);
});

test('--only-answered leaves out the README without an answer, as upstream', async () => {
  const s = await readmeScoreResult({ predictions: dir, gold: encondaDir(), judge: 'deterministic', instances, onlyAnswered: true });
  expect(s.files).toBe(4);
  expect(s.per_file.map((f) => f.instance)).not.toContain(ONLY_E2.name);
  // ONLY_E2's one miss (E2) is gone.
  expect(s.type).toMatchObject({ tp: 3, fp: 3, fn: 2 });
});

test('a prediction or a listed name that is no instance of the data set is refused', async () => {
  const other = path.join(dir, 'other');
  writeEncondaPrediction(other, { name: 'no_such_instance', repoFolder: 'error_gen_x', repo: 'x' }, { detected_errors: [], setup_script: null });
  await expect(readmeScoreResult({ predictions: other, gold: encondaDir(), judge: 'deterministic' })).rejects.toThrow(/answers no_such_instance, which is no instance of/);
  const list = path.join(dir, 'bad.txt');
  fs.writeFileSync(list, 'nope\n');
  await expect(readmeScoreResult({ predictions: dir, gold: encondaDir(), judge: 'deterministic', instances: list })).rejects.toThrow(`${list} names nope`);
});
