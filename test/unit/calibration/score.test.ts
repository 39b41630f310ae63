import { pool, precisionRecall, scoreBuilt, scorePhantoms, scoreTraced } from '../../../src/calibration/score';
import { truth } from './truthFixture';

test('D3 against a complete truth: every other name is a false positive', () => {
  expect(scoreTraced(truth(), ['a', 'b', 'other'])).toEqual({ truePositives: ['a'], falsePositives: ['b', 'other'], falseNegatives: ['dep', 'pyyaml'] });
});

test('D3 against an incomplete truth: names it does not list count for nothing', () => {
  const t = truth({ run: { used: ['a', 'pyyaml'], unused: ['b'], complete: false } });
  expect(scoreTraced(t, ['a', 'b', 'other'])).toEqual({ truePositives: ['a'], falsePositives: ['b'], falseNegatives: ['pyyaml'] });
});

test('phantoms: reported (D1 not in D3) against true (D1 whose package the run did not use)', () => {
  const t = truth({ declared: ['zlib', 'b', 'c'], confirmation: { zlib: 'needed', b: 'unneeded', c: 'needed' }, run: { used: ['z', 'c'], unused: ['b'], complete: true }, declared_as: { zlib: 'z' } });
  // zlib is used as z (reported wrongly), b is a phantom (found), c is used but missing from D3 (reported wrongly).
  expect(scorePhantoms(t, ['zlib', 'b', 'c'], ['z'])).toEqual({ truePositives: ['b'], falsePositives: ['c', 'zlib'], falseNegatives: [] });
  // b traced by mistake: a phantom missed.
  expect(scorePhantoms(t, ['zlib', 'b', 'c'], ['b', 'c', 'zlib'])).toEqual({ truePositives: [], falsePositives: [], falseNegatives: ['b'] });
});

test('D3-build on the names the build truth lists', () => {
  const t = truth({ build: { used: ['lombok', 'annotations'], unused: ['jquery'] } });
  expect(scoreBuilt(t, ['lombok', 'jquery', 'other'])).toEqual({ truePositives: ['lombok'], falsePositives: ['jquery'], falseNegatives: ['annotations'] });
  expect(scoreBuilt(t, null)).toBeNull();
  expect(scoreBuilt(truth(), ['x'])).toBeNull();
});

test('pooled counts, and precision and recall of 1 where nothing was claimed or nothing was there', () => {
  const c = pool([
    { truePositives: ['a', 'b'], falsePositives: ['c'], falseNegatives: [] },
    { truePositives: ['d'], falsePositives: [], falseNegatives: ['e'] },
  ]);
  expect(c).toEqual({ tp: 3, fp: 1, fn: 1 });
  expect(precisionRecall(c)).toEqual({ precision: 0.75, recall: 0.75 });
  expect(precisionRecall({ tp: 0, fp: 0, fn: 0 })).toEqual({ precision: 1, recall: 1 });
  expect(precisionRecall({ tp: 0, fp: 2, fn: 0 })).toEqual({ precision: 0, recall: 1 });
});
