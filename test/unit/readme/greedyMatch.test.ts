import { greedyMatch, matchScore, MATCH_THRESHOLD, MATCH_WEIGHTS } from '../../../src/metrics/readme';

test("upstream's weights: type 0.6, description 0.3, fix 0.1; threshold 0.5", () => {
  expect(MATCH_WEIGHTS).toEqual({ type: 0.6, description: 0.3, fix: 0.1 });
  expect(MATCH_THRESHOLD).toBe(0.5);
  expect(matchScore(true, null, null)).toBe(0.6);
  expect(matchScore(false, true, true)).toBeCloseTo(0.4, 12);
  expect(matchScore(true, true, false)).toBeCloseTo(0.9, 12);
});

test('a score of exactly the threshold is not a match; just above is', () => {
  expect(greedyMatch([[0.5]], 1)).toEqual([null]);
  expect(greedyMatch([[0.5000001]], 1)).toEqual([0]);
  expect(greedyMatch([[0.4, 0.5]], 2)).toEqual([null]);
});

test('each prediction takes the best gold error still free, in prediction order', () => {
  // pred0 prefers gold1; pred1 also prefers gold1 but it is taken, so it falls to gold0.
  expect(greedyMatch([[0.6, 0.9], [0.7, 1.0]], 2)).toEqual([1, 0]);
  // The same two rows the other way round: order decides who gets gold1.
  expect(greedyMatch([[0.7, 1.0], [0.6, 0.9]], 2)).toEqual([1, 0]);
  // Greedy, not optimal: pred0 takes gold0 (0.9 > 0.7), leaving pred1 with nothing above the threshold.
  expect(greedyMatch([[0.9, 0.7], [0.8, 0.1]], 2)).toEqual([0, null]);
});

test('a gold error is matched at most once', () => {
  expect(greedyMatch([[0.7], [0.7], [1.0]], 1)).toEqual([0, null, null]);
});

test('on equal scores the first gold error wins', () => {
  expect(greedyMatch([[0.6, 0.6, 0.6]], 3)).toEqual([0]);
  expect(greedyMatch([[0.1, 0.7, 0.7]], 3)).toEqual([1]);
});

test('no gold errors, or no predictions', () => {
  expect(greedyMatch([[], []], 0)).toEqual([null, null]);
  expect(greedyMatch([], 3)).toEqual([]);
});
