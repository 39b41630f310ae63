import type { ReadmeRecord } from '../../domain/readme';
import { perTypeSetCounts, typeSetCounts } from './typeSets';
import type { ReadmeFileScore } from './types';

/**
 * A README whose instance ended in a harness fault, scored as a failure: as an agent that gave no
 * answer is (zero predictions, so every gold type a miss and the accuracies 0 where there are gold
 * errors). Null where the record has no gold to score against. `judges` says which accuracies the
 * group's judge gives (null where it gives none, as in its own files).
 */
export function faultAsFailureScore(r: ReadmeRecord, judge: string, judges: { descriptions: boolean; fixes: boolean }): ReadmeFileScore | null {
  if (r.gold === null) return null;
  const accuracy = (judged: boolean) => (!judged || r.gold!.errors === 0 ? null : 0);
  return {
    instance: r.instance,
    answered: false,
    gold_errors: r.gold.errors,
    predicted_errors: 0,
    type: typeSetCounts([], r.gold.types),
    per_type: perTypeSetCounts([], r.gold.types),
    unknown_types: [],
    matches: [],
    description_accuracy: accuracy(judges.descriptions),
    fix_accuracy: accuracy(judges.fixes),
    judge,
  };
}
