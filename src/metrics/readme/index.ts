import type { DetectedError, GoldAnswer } from '../../domain/readme';
import { aggregateReadmeScores } from './aggregate';
import type { Judge } from './judge';
import { scoreReadme } from './scoreReadme';
import type { ReadmeScores } from './types';

export type { PerType, ReadmeFileScore, ReadmeMatch, ReadmeScores, TypeCounts, TypeScore } from './types';
export type { Judge } from './judge';
export { aggregateReadmeScores } from './aggregate';
export { deterministicJudge, normaliseFix } from './deterministicJudge';
export { greedyMatch, matchScore, MATCH_THRESHOLD, MATCH_WEIGHTS } from './greedyMatch';
export { scoreReadme } from './scoreReadme';
export { typeScore } from './ratios';

export interface ReadmeToScore {
  instance: string;
  gold: GoldAnswer;
  /** Null where the agent gave no answer for this README. */
  predicted: readonly DetectedError[] | null;
}

/** Every README scored, one after another (a model judge is asked in order), then aggregated. */
export async function scoreReadmes(files: readonly ReadmeToScore[], judge: Judge): Promise<ReadmeScores> {
  const scored = [];
  for (const f of files) scored.push(await scoreReadme(f.instance, f.gold, f.predicted, judge));
  return aggregateReadmeScores(scored, judge.name);
}
