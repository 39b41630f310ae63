import { difference, differenceSize, intersection, intersectionSize, jaccard, sameSet, union } from '../../../src/metrics/sets';

const s = (...xs: string[]) => new Set(xs);

describe('set helpers', () => {
  it('jaccard is |a n b| / |a u b|', () => {
    expect(jaccard(s('a', 'b', 'c'), s('b', 'c', 'd'))).toBe(0.5);
    expect(jaccard(s('a'), s('a'))).toBe(1);
    expect(jaccard(s('a'), s('b'))).toBe(0);
  });

  it('jaccard is 1 when both sets are empty and 0 when exactly one is', () => {
    expect(jaccard(s(), s())).toBe(1);
    expect(jaccard(s('a'), s())).toBe(0);
    expect(jaccard(s(), s('a'))).toBe(0);
  });

  it('intersection, difference, union, sameSet', () => {
    expect(intersectionSize(s('a', 'b'), s('b', 'c', 'd'))).toBe(1);
    expect(differenceSize(s('a', 'b'), s('b', 'c'))).toBe(1);
    expect(difference(s('a', 'b', 'c'), s('b'))).toEqual(['a', 'c']);
    expect([...union([s('a'), s('b', 'a'), s()])].sort()).toEqual(['a', 'b']);
    expect([...intersection([s('a', 'b'), s('b', 'a', 'c'), s('b')])]).toEqual(['b']);
    expect(intersection([]).size).toBe(0);
    expect(sameSet(s('a', 'b'), s('b', 'a'))).toBe(true);
    expect(sameSet(s('a', 'b'), s('a', 'c'))).toBe(false);
    expect(sameSet(s(), s())).toBe(true);
  });
});
