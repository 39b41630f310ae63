/**
 * Upstream's error_matcher.match_errors: score = 0.6·[same type] + 0.3·[description similar] +
 * 0.1·[fix similar] (upstream weights the two similarity terms by the judge's confidence; ours are 0/1).
 */
export const MATCH_WEIGHTS = Object.freeze({ type: 0.6, description: 0.3, fix: 0.1 });
/** A pair matches only with a score strictly above this. */
export const MATCH_THRESHOLD = 0.5;

export function matchScore(sameType: boolean, descriptionSimilar: boolean | null, fixSimilar: boolean | null): number {
  return (sameType ? MATCH_WEIGHTS.type : 0) + (descriptionSimilar === true ? MATCH_WEIGHTS.description : 0) + (fixSimilar === true ? MATCH_WEIGHTS.fix : 0);
}

/**
 * Whether a pair could score above the threshold whatever the judge says. With upstream's weights that is
 * exactly "same type" (0.3 + 0.1 ≤ 0.5), so pairs of different types need no judge call.
 */
export function canMatch(sameType: boolean): boolean {
  return matchScore(sameType, true, true) > MATCH_THRESHOLD;
}

/**
 * Greedy in prediction order, as upstream: each predicted error takes the not yet used gold error with the
 * highest score, provided it is above MATCH_THRESHOLD; on equal scores the lower gold index wins (upstream
 * replaces its best only on a strictly greater score). A gold error is matched at most once; a predicted
 * error whose best gold errors are taken falls to the next one above the threshold, or to none.
 * `scores[i][j]` is predicted error i against gold error j. Returns, per predicted error, its gold index or null.
 */
export function greedyMatch(scores: readonly (readonly number[])[], goldCount: number): (number | null)[] {
  const used = new Set<number>();
  return scores.map((row) => {
    let best: number | null = null;
    let bestScore = 0;
    for (let j = 0; j < goldCount; j++) {
      if (used.has(j)) continue;
      const s = row[j];
      if (s > bestScore && s > MATCH_THRESHOLD) {
        best = j;
        bestScore = s;
      }
    }
    if (best !== null) used.add(best);
    return best;
  });
}
