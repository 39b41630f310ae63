import { ERROR_TYPES } from '../../domain/readme';
import { addCounts, typeScore, ZERO_COUNTS } from './ratios';
import type { PerType, ReadmeFileScore, ReadmeScores, TypeCounts, TypeScore } from './types';

/**
 * The scores of many READMEs from their per-file scores: type and per-type counts summed over files
 * (micro), ratios from the sums; accuracies the mean of the per-file accuracies that are not null.
 * All files must come from one judge.
 */
export function aggregateReadmeScores(files: readonly ReadmeFileScore[], judge: string): ReadmeScores {
  const other = files.find((f) => f.judge !== judge);
  if (other !== undefined) throw new Error(`readme scores: ${other.instance} was scored by judge "${other.judge}", not "${judge}"`);
  let type: TypeCounts = ZERO_COUNTS;
  const perType = Object.fromEntries(ERROR_TYPES.map((t) => [t, ZERO_COUNTS])) as PerType<TypeCounts>;
  const unknown: Record<string, number> = {};
  for (const f of files) {
    type = addCounts(type, f.type);
    for (const t of ERROR_TYPES) perType[t] = addCounts(perType[t], f.per_type[t]);
    for (const u of f.unknown_types) unknown[u] = (unknown[u] ?? 0) + 1;
  }
  const accuracyFiles = files.filter((f) => f.gold_errors > 0);
  return {
    judge,
    files: files.length,
    files_answered: files.filter((f) => f.answered).length,
    accuracy_files: accuracyFiles.length,
    type: typeScore(type),
    per_type: Object.fromEntries(ERROR_TYPES.map((t) => [t, typeScore(perType[t])])) as PerType<TypeScore>,
    description_accuracy: mean(accuracyFiles.map((f) => f.description_accuracy)),
    fix_accuracy: mean(accuracyFiles.map((f) => f.fix_accuracy)),
    unknown_types: unknown,
    per_file: [...files],
  };
}

/** Null where any value is null (the judge does not judge that kind) or there is none. */
function mean(values: readonly (number | null)[]): number | null {
  if (values.length === 0 || values.some((v) => v === null)) return null;
  return (values as number[]).reduce((a, b) => a + b, 0) / values.length;
}
