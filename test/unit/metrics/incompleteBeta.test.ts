import { logGamma, regularizedIncompleteBeta, studentTTwoSidedP } from '../../../src/metrics/incompleteBeta';

/** For whole a and b, I_x(a, b) = P(Binomial(a + b - 1, x) >= a). */
function binomialTail(a: number, b: number, x: number): number {
  const n = a + b - 1;
  let p = 0;
  let choose = 1;
  for (let j = 0; j <= n; j += 1) {
    if (j > 0) choose = (choose * (n - j + 1)) / j;
    if (j >= a) p += choose * x ** j * (1 - x) ** (n - j);
  }
  return p;
}

describe('logGamma', () => {
  it('matches known values', () => {
    expect(logGamma(1)).toBeCloseTo(0, 13);
    expect(logGamma(2)).toBeCloseTo(0, 13);
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 13);
    expect(logGamma(10)).toBeCloseTo(Math.log(362880), 12);
    expect(logGamma(100.5)).toBeCloseTo(361.4355404677776, 10); // math.lgamma
    expect(logGamma(3.7)).toBeCloseTo(1.4280723266653883, 13);
  });
});

describe('regularizedIncompleteBeta', () => {
  it('matches closed forms', () => {
    expect(regularizedIncompleteBeta(0.5, 2, 3)).toBeCloseTo(0.6875, 14);
    expect(regularizedIncompleteBeta(0.3, 1, 1)).toBeCloseTo(0.3, 14);
    expect(regularizedIncompleteBeta(0.7, 4, 1)).toBeCloseTo(0.7 ** 4, 14);
    expect(regularizedIncompleteBeta(0, 2, 2)).toBe(0);
    expect(regularizedIncompleteBeta(1, 2, 2)).toBe(1);
  });

  it('matches the binomial tail on a grid of whole parameters', () => {
    for (const [a, b] of [[1, 5], [3, 10], [7, 2], [20, 20], [50, 3]]) {
      for (const x of [0.01, 0.2, 0.5, 0.77, 0.99]) {
        expect(regularizedIncompleteBeta(x, a, b)).toBeCloseTo(binomialTail(a, b, x), 12);
      }
    }
  });

  it('is symmetric: I_x(a, b) = 1 - I_1-x(b, a)', () => {
    expect(regularizedIncompleteBeta(0.35, 2.5, 7.25) + regularizedIncompleteBeta(0.65, 7.25, 2.5)).toBeCloseTo(1, 14);
  });

  it('converges for the large parameters of big samples', () => {
    expect(regularizedIncompleteBeta(0.9999, 50_000, 0.5)).toBeGreaterThan(0);
  });

  it('rejects arguments outside its domain', () => {
    expect(() => regularizedIncompleteBeta(1.5, 1, 1)).toThrow(RangeError);
    expect(() => regularizedIncompleteBeta(0.5, 0, 1)).toThrow(RangeError);
  });
});

describe('studentTTwoSidedP', () => {
  it('matches closed forms for 1 and 2 degrees of freedom', () => {
    for (const t of [0.1, 1, 2.5, 12]) {
      expect(studentTTwoSidedP(t, 1)).toBeCloseTo(1 - (2 / Math.PI) * Math.atan(t), 13);
      expect(studentTTwoSidedP(-t, 2)).toBeCloseTo(1 - t / Math.sqrt(t * t + 2), 13);
    }
  });

  it('matches tabulated critical values', () => {
    expect(studentTTwoSidedP(2.228138851986273, 10)).toBeCloseTo(0.05, 12);
    expect(studentTTwoSidedP(2.576, 1_000_000)).toBeCloseTo(0.01, 4);
    expect(studentTTwoSidedP(0, 7)).toBeCloseTo(1, 14);
    expect(studentTTwoSidedP(Infinity, 7)).toBe(0);
  });
});
