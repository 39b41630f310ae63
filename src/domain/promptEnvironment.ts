/**
 * Which environment the task prompts describe (issue 26, item 6; docs/prompts.md, "The environment
 * sentence"): `actual`, the image the project really runs on (its Debian release and the runtime
 * versions its recipe installs), or `paper`, the published text ("a clean Ubuntu 22.04 machine with
 * only Node.js 20+ (LTS) installed"), kept for runs that must stay comparable with the paper's.
 */
export const PROMPT_ENVIRONMENTS = ['actual', 'paper'] as const;
export type PromptEnvironment = (typeof PROMPT_ENVIRONMENTS)[number];

/** What a study file that does not say gets. */
export const DEFAULT_PROMPT_ENVIRONMENT: PromptEnvironment = 'actual';

/**
 * What an instance whose input does not say was told: studies started before the choice existed sent
 * the published text, and keep sending it to the end.
 */
export const UNSTATED_PROMPT_ENVIRONMENT: PromptEnvironment = 'paper';
