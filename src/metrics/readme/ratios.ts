import type { TypeCounts, TypeScore } from './types';

/** 0/0 is defined as 0, as upstream's evaluation_engine.py does, so an empty comparison scores 0, not NaN. */
function ratio(num: number, den: number): number {
  return den > 0 ? num / den : 0;
}

export function typeScore(c: TypeCounts): TypeScore {
  const precision = ratio(c.tp, c.tp + c.fp);
  const recall = ratio(c.tp, c.tp + c.fn);
  return { ...c, precision, recall, f1: ratio(2 * precision * recall, precision + recall) };
}

export function addCounts(a: TypeCounts, b: TypeCounts): TypeCounts {
  return { tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn };
}

export const ZERO_COUNTS: TypeCounts = Object.freeze({ tp: 0, fp: 0, fn: 0 });
