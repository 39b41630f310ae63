import { typeScore } from '../../../src/metrics/readme';
import { perTypeSetCounts, typeSetCounts } from '../../../src/metrics/readme/typeSets';

test('type sets: duplicates collapse on both sides', () => {
  expect(typeSetCounts(['E1', 'E1', 'E2'], ['E1', 'E4', 'E4'])).toEqual({ tp: 1, fp: 1, fn: 1 });
  expect(typeSetCounts([], ['E1', 'E1'])).toEqual({ tp: 0, fp: 0, fn: 1 });
  expect(typeSetCounts(['E8'], [])).toEqual({ tp: 0, fp: 1, fn: 0 });
});

test('per type: the same comparison for each taxonomy type, misses counted', () => {
  const c = perTypeSetCounts(['E1', 'E2', 'E2'], ['E2', 'E7']);
  expect(c.E1).toEqual({ tp: 0, fp: 1, fn: 0 });
  expect(c.E2).toEqual({ tp: 1, fp: 0, fn: 0 });
  expect(c.E7).toEqual({ tp: 0, fp: 0, fn: 1 });
  expect(c.E4).toEqual({ tp: 0, fp: 0, fn: 0 });
});

test('ratios from counts; 0/0 reads 0', () => {
  expect(typeScore({ tp: 3, fp: 1, fn: 2 })).toEqual({ tp: 3, fp: 1, fn: 2, precision: 0.75, recall: 0.6, f1: (2 * 0.75 * 0.6) / 1.35 });
  expect(typeScore({ tp: 0, fp: 0, fn: 0 })).toEqual({ tp: 0, fp: 0, fn: 0, precision: 0, recall: 0, f1: 0 });
  expect(typeScore({ tp: 0, fp: 2, fn: 0 })).toMatchObject({ precision: 0, recall: 0, f1: 0 });
});
