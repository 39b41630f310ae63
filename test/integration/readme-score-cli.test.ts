import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeEncondaPrediction } from '../../src/readme/enconda';
import { encondaDir, SMALL_PREDICTIONS } from '../unit/readme/realInstances';

// The built CLI (dist/, which scripts/test.sh builds for this tier) on the numbers of the unit tier's
// readmeScoreCli.test.ts.
const ROOT = path.resolve(__dirname, '../..');
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

test('the built CLI: envgap readme score --format json', () => {
  const r = spawnSync('node', ['bin/envgap.js', 'readme', 'score', '--predictions', predictions, '--gold', encondaDir(), '--instances', instances, '--format', 'json'], { cwd: ROOT, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const out = JSON.parse(r.stdout);
  expect(out.judge).toBe('deterministic');
  expect(out.files).toBe(5);
  expect(out.type).toEqual({ tp: 3, fp: 3, fn: 3, precision: 0.5, recall: 0.5, f1: 0.5 });
  expect(Object.keys(out.per_type)).toEqual(['E1', 'E2', 'E4', 'E6', 'E7', 'E8']);
  for (const t of Object.values(out.per_type)) expect(Object.keys(t as object).sort()).toEqual(['f1', 'fn', 'fp', 'precision', 'recall', 'tp']);
  expect(out.description_accuracy).toBeNull();
  expect(out.fix_accuracy).toBeCloseTo(0.375, 12);
  const bad = spawnSync('node', ['bin/envgap.js', 'readme', 'score', '--predictions', path.join(dir, 'nope'), '--gold', encondaDir()], { cwd: ROOT, encoding: 'utf8' });
  expect(bad.status).toBe(1);
  expect(bad.stderr).toMatch(/^envgap: predictions folder not found: /);
});
