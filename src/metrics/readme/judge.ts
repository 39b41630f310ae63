import type { GoldError } from '../../domain/readme';

/**
 * Decides whether a predicted error's description, or its fix, says the same as a gold error's
 * (upstream's text_similarity_evaluator). Async, so a judge may ask a model.
 */
export interface Judge {
  /** Named in every score output: `deterministic`, `openai:<model>`. */
  readonly name: string;
  /** False where the judge gives no verdict on that kind: its method is never called and that accuracy is null. */
  readonly judgesDescriptions: boolean;
  readonly judgesFixes: boolean;
  /** "Do they describe the same type of problem?" null: no verdict (counts as not similar in a match score). */
  describesSame(predicted: string, gold: GoldError): Promise<boolean | null>;
  /** "Do they propose the same or an equivalent approach?" */
  fixesSame(predicted: string, gold: GoldError): Promise<boolean | null>;
}
