import type { DetectedError, GoldAnswer } from '../../domain/readme';
import { canMatch, greedyMatch, matchScore } from './greedyMatch';
import type { Judge } from './judge';
import { isErrorType, perTypeSetCounts, typeSetCounts } from './typeSets';
import type { ReadmeFileScore, ReadmeMatch } from './types';

interface Verdicts {
  description: boolean | null;
  fix: boolean | null;
}

/**
 * One README's scores. `predicted` null (the agent gave no answer) is scored as zero predictions.
 * The judge is asked once per pair of the same type (only those can match, see canMatch); the matched
 * pairs' accuracies reuse those verdicts, where upstream asks its model a second time.
 */
export async function scoreReadme(
  instance: string,
  gold: GoldAnswer,
  predicted: readonly DetectedError[] | null,
  judge: Judge,
): Promise<ReadmeFileScore> {
  const preds = predicted ?? [];
  const golds = gold.errors;
  const verdicts: (Verdicts | null)[][] = [];
  const scores: number[][] = [];
  for (const p of preds) {
    const vRow: (Verdicts | null)[] = [];
    const sRow: number[] = [];
    for (const g of golds) {
      const sameType = p.error_type === g.error_type;
      if (!canMatch(sameType)) {
        vRow.push(null);
        sRow.push(matchScore(sameType, null, null));
        continue;
      }
      const v: Verdicts = {
        description: judge.judgesDescriptions ? await judge.describesSame(p.error_description, g) : null,
        fix: judge.judgesFixes ? await judge.fixesSame(p.fix_suggestion, g) : null,
      };
      vRow.push(v);
      sRow.push(matchScore(sameType, v.description, v.fix));
    }
    verdicts.push(vRow);
    scores.push(sRow);
  }
  const assigned = greedyMatch(scores, golds.length);
  const matches: ReadmeMatch[] = assigned.map((j, i) => {
    const v = j === null ? null : verdicts[i][j];
    return {
      predicted: i,
      gold: j,
      score: j === null ? 0 : scores[i][j],
      description_similar: v?.description ?? null,
      fix_similar: v?.fix ?? null,
    };
  });
  const predTypes = preds.map((p) => p.error_type);
  const goldTypes = golds.map((g) => g.error_type);
  return {
    instance,
    answered: predicted !== null,
    gold_errors: golds.length,
    predicted_errors: preds.length,
    type: typeSetCounts(predTypes, goldTypes),
    per_type: perTypeSetCounts(predTypes, goldTypes),
    unknown_types: [...new Set(predTypes.filter((t) => !isErrorType(t)))].sort(),
    matches,
    description_accuracy: judge.judgesDescriptions ? fileAccuracy(matches, golds.length, 'description_similar') : null,
    fix_accuracy: judge.judgesFixes ? fileAccuracy(matches, golds.length, 'fix_similar') : null,
    judge: judge.name,
  };
}

/**
 * Upstream's _calculate_text_accuracy: matched errors judged similar over matched errors, 0 where none
 * matched. A README without gold errors has nothing to describe or fix: null, so it leaves the average
 * (upstream averages it in as 0).
 */
function fileAccuracy(matches: readonly ReadmeMatch[], goldErrors: number, key: 'description_similar' | 'fix_similar'): number | null {
  if (goldErrors === 0) return null;
  const matched = matches.filter((m) => m.gold !== null);
  if (matched.length === 0) return 0;
  return matched.filter((m) => m[key] === true).length / matched.length;
}
