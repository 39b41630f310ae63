import type { Language } from '../domain/instance';
import type { PromptEnvironment } from '../domain/promptEnvironment';
import { ECOSYSTEMS } from '../ecosystems/registry';
import type { RuntimeImageFacts } from './imageFacts';

/**
 * The published prompts' environment sentence, the same in all 200 (catalog/prompts): "Create a
 * complete <Language> project for a clean Ubuntu 22.04 machine with only <runtime> installed. Include:".
 */
export const PAPER_ENVIRONMENT_SENTENCE = /^Create a complete (.+?) project for a clean Ubuntu 22\.04 machine with only (.+?) installed\. Include:$/m;

/** The published Repair prompt's machine, and the one the images really are. */
export const PAPER_MACHINE = 'a clean Ubuntu 22.04 machine';

/** `A`, `A and B`, `A, B and C`. */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The machine as the images are: `a clean Debian 12 (bookworm) machine`. */
export function actualMachine(facts: RuntimeImageFacts): string {
  return `a clean ${facts.os} machine`;
}

/** The environment sentence stating the image's real facts: its Debian release and each program the recipe installs, with its version. */
export function actualEnvironmentSentence(language: Language, facts: RuntimeImageFacts): string {
  const programs = facts.programs.map((p) => (p.version === null ? p.name : `${p.name} ${p.version}`));
  return `Create a complete ${ECOSYSTEMS[language].displayName} project for ${actualMachine(facts)} with only ${listed(programs)} installed. Include:`;
}

/**
 * A catalog prompt with its environment sentence as `environment` says: `paper` leaves the published
 * text as it is; `actual` puts the image's facts in its place. A prompt without the published sentence
 * (a catalog of another origin) is refused for `actual`, so that no study claims facts it did not state.
 */
export function withEnvironmentSentence(prompt: string, language: Language, environment: PromptEnvironment, facts: RuntimeImageFacts): string {
  if (environment === 'paper') return prompt;
  if (!PAPER_ENVIRONMENT_SENTENCE.test(prompt)) {
    throw new Error(`the ${language} prompt has no environment sentence to state the image's facts in ("Create a complete … project for a clean Ubuntu 22.04 machine with only … installed. Include:"); give the study prompt_environment: paper`);
  }
  return prompt.replace(PAPER_ENVIRONMENT_SENTENCE, actualEnvironmentSentence(language, facts));
}

/** The machine the Repair prompt names. */
export function repairMachine(environment: PromptEnvironment, facts: RuntimeImageFacts): string {
  return environment === 'paper' ? PAPER_MACHINE : actualMachine(facts);
}
