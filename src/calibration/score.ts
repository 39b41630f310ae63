import { reportedPhantoms, truePhantoms } from './expected';
import type { CalibrationTruth } from './truth';

/** Counts of one comparison with the truth, with the names behind them. */
export interface Confusion {
  truePositives: string[];
  falsePositives: string[];
  falseNegatives: string[];
}

/**
 * D3 against the run's truth: a name in D3 that the run used is a true positive; one it did not use (listed
 * unused, or anything outside `used` when the truth is complete) a false positive; a used name D3 lacks a
 * false negative. Names the truth does not judge (an incomplete truth's others) count for nothing.
 */
export function scoreTraced(truth: CalibrationTruth, traced: readonly string[]): Confusion {
  const used = new Set(truth.run.used);
  const judged = (name: string) => used.has(name) || truth.run.complete || truth.run.unused.includes(name);
  const have = new Set(traced);
  return {
    truePositives: [...have].filter((n) => used.has(n)).sort(),
    falsePositives: [...have].filter((n) => !used.has(n) && judged(n)).sort(),
    falseNegatives: [...used].filter((n) => !have.has(n)).sort(),
  };
}

/**
 * D3-build against the build's truth, judged on the names it lists only (a build opens much that is
 * neither): null where the truth gives no build or envgap no D3-build.
 */
export function scoreBuilt(truth: CalibrationTruth, tracedBuild: readonly string[] | null): Confusion | null {
  if (!truth.build || tracedBuild === null) return null;
  const have = new Set(tracedBuild);
  return {
    truePositives: truth.build.used.filter((n) => have.has(n)).sort(),
    falsePositives: truth.build.unused.filter((n) => have.has(n)).sort(),
    falseNegatives: truth.build.used.filter((n) => !have.has(n)).sort(),
  };
}

/**
 * The phantoms envgap reports (D1 names not in D3, as the metrics count them) against the true ones (D1
 * names whose package, under its run name, the run did not use). A reported phantom that is one is a true
 * positive; one the run did use (a name D3 writes otherwise, a use D3 cannot see) a false positive; a true
 * phantom that D3 holds anyway a false negative.
 */
export function scorePhantoms(truth: CalibrationTruth, declared: readonly string[], traced: readonly string[]): Confusion {
  const reported = reportedPhantoms(declared, traced);
  const real = truePhantoms(truth).filter((n) => declared.includes(n));
  return {
    truePositives: reported.filter((n) => real.includes(n)).sort(),
    falsePositives: reported.filter((n) => !real.includes(n)).sort(),
    falseNegatives: real.filter((n) => !reported.includes(n)).sort(),
  };
}

/** Precision and recall of pooled counts; each 1 where its denominator is 0 (nothing claimed, nothing to find). */
export function precisionRecall(c: { tp: number; fp: number; fn: number }): { precision: number; recall: number } {
  return {
    precision: c.tp + c.fp === 0 ? 1 : c.tp / (c.tp + c.fp),
    recall: c.tp + c.fn === 0 ? 1 : c.tp / (c.tp + c.fn),
  };
}

/** Sums confusions (micro-averaging: every judged name weighs the same). */
export function pool(confusions: readonly Confusion[]): { tp: number; fp: number; fn: number } {
  return confusions.reduce(
    (acc, c) => ({ tp: acc.tp + c.truePositives.length, fp: acc.fp + c.falsePositives.length, fn: acc.fn + c.falseNegatives.length }),
    { tp: 0, fp: 0, fn: 0 },
  );
}
