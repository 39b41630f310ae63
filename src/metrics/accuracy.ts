import type { Instance } from './instances';
import { intersectionSize } from './sets';
import { mean } from './stats';

export interface InstanceAccuracy {
  precision: number;
  recall: number;
  f1: number;
}

/**
 * M4 for one successful instance, D1 read as a prediction of D3: P = |D1 n D3| / n1 (1 when n1 = 0),
 * R = |D1 n D3| / n3 (1 when n3 = 0), F1 = 2PR / (P + R) (0 when P + R = 0). Null when n1 = n3 = 0
 * (nothing to score) or when a set is missing.
 */
export function instanceAccuracy(i: Instance): InstanceAccuracy | null {
  const { declared: d1, traced: d3 } = i;
  if (!i.success || d1 === null || d3 === null) return null;
  if (d1.size === 0 && d3.size === 0) return null;
  const common = intersectionSize(d1, d3);
  const precision = d1.size === 0 ? 1 : common / d1.size;
  const recall = d3.size === 0 ? 1 : common / d3.size;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

/** M4 means of the per-instance scores (so F1 is not the harmonic mean of the mean P and R). */
export function accuracySummary(instances: readonly Instance[]) {
  const scores = instances.map(instanceAccuracy).filter((s): s is InstanceAccuracy => s !== null);
  return {
    accuracy_n: scores.length,
    precision: mean(scores.map((s) => s.precision)),
    recall: mean(scores.map((s) => s.recall)),
    f1: mean(scores.map((s) => s.f1)),
  };
}
