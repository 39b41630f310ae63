import { ERROR_TYPES, type ErrorType } from '../../domain/readme';
import type { PerType, TypeCounts } from './types';

/**
 * Upstream's error_matcher.calculate_error_type_metrics: the SETS of predicted and gold types of one
 * README (duplicates collapse): tp = |P∩G|, fp = |P−G|, fn = |G−P|.
 */
export function typeSetCounts(predicted: readonly string[], gold: readonly string[]): TypeCounts {
  const p = new Set(predicted);
  const g = new Set(gold);
  let tp = 0;
  for (const t of p) if (g.has(t)) tp++;
  return { tp, fp: p.size - tp, fn: g.size - tp };
}

/**
 * Per taxonomy type, the same set comparison restricted to that type: tp where the README's predicted
 * and gold sets both hold it, fp where only the predicted set does, fn where only the gold set does.
 * (Upstream counts per predicted error instead and never counts a miss: see docs/readme.md.)
 */
export function perTypeSetCounts(predicted: readonly string[], gold: readonly string[]): PerType<TypeCounts> {
  const p = new Set(predicted);
  const g = new Set(gold);
  const out = {} as PerType<TypeCounts>;
  for (const t of ERROR_TYPES) {
    const inP = p.has(t);
    const inG = g.has(t);
    out[t] = { tp: inP && inG ? 1 : 0, fp: inP && !inG ? 1 : 0, fn: !inP && inG ? 1 : 0 };
  }
  return out;
}

export function isErrorType(t: string): t is ErrorType {
  return (ERROR_TYPES as readonly string[]).includes(t);
}
