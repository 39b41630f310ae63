import type { ErrorType } from '../../domain/readme';

/** Counts of one comparison of predicted and gold error types. */
export interface TypeCounts {
  tp: number;
  fp: number;
  fn: number;
}

/** Counts with the ratios drawn from them (0/0 reads 0, as upstream's). */
export interface TypeScore extends TypeCounts {
  precision: number;
  recall: number;
  f1: number;
}

export type PerType<T> = Record<ErrorType, T>;

/** One predicted error's place in the greedy matching (indexes into the file's predicted and gold errors). */
export interface ReadmeMatch {
  predicted: number;
  /** The gold error it matched, or null where no gold error scored above the threshold. */
  gold: number | null;
  /** The match score with that gold error (0 where none). */
  score: number;
  /** The judge's verdicts on the matched pair; null where unmatched or the judge does not judge that kind. */
  description_similar: boolean | null;
  fix_similar: boolean | null;
}

/** The scores of one README: what a workflow keeps per instance and aggregates later. */
export interface ReadmeFileScore {
  instance: string;
  /** False where the agent gave no answer for the README; it is scored as zero predictions. */
  answered: boolean;
  gold_errors: number;
  predicted_errors: number;
  type: TypeCounts;
  per_type: PerType<TypeCounts>;
  /** Predicted types outside E1..E8 of the taxonomy (each counted once per file in `type.fp`). */
  unknown_types: string[];
  matches: ReadmeMatch[];
  /**
   * Matched errors judged similar over matched errors; 0 where the README has gold errors and none was
   * matched; null where the README has no gold errors (it leaves the average) or the judge does not judge
   * that kind.
   */
  description_accuracy: number | null;
  fix_accuracy: number | null;
  judge: string;
}

export interface ReadmeScores {
  judge: string;
  /** READMEs scored, answered or not. */
  files: number;
  files_answered: number;
  /** READMEs with gold errors: the ones the accuracies average over. */
  accuracy_files: number;
  type: TypeScore;
  per_type: PerType<TypeScore>;
  /** Mean of the per-file accuracies over `accuracy_files`; null where the judge does not judge that kind or no file counts. */
  description_accuracy: number | null;
  fix_accuracy: number | null;
  /** Predicted types outside the taxonomy: in how many files each was named. */
  unknown_types: Record<string, number>;
  per_file: ReadmeFileScore[];
}
