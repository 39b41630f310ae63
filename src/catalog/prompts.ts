import type { ErrorClass, Language } from '../domain/instance';
import type { PromptEnvironment } from '../domain/promptEnvironment';
import { ECOSYSTEMS } from '../ecosystems/registry';
import type { Catalog } from './catalog';
import { PAPER_MACHINE, withEnvironmentSentence } from './environmentSentence';
import type { RuntimeImageFacts } from './imageFacts';

/** Which environment a prompt states, and the facts of the image to state for `actual`. */
export interface PromptEnvironmentFacts {
  environment: PromptEnvironment;
  facts: RuntimeImageFacts;
}

/**
 * The Gen prompt: the published task prompt, its environment sentence stating the image's real facts
 * (`actual`) or left as published (`paper`, and without `environment`), so runs can stay comparable
 * with the paper. How the project comes back (files in a workspace, or JSON) is each agent adapter's business.
 */
export function genPrompt(catalog: Pick<Catalog, 'prompt'>, taskId: string, language: Language, environment?: PromptEnvironmentFacts): string {
  const published = catalog.prompt(taskId, language);
  return environment ? withEnvironmentSentence(published, language, environment.environment, environment.facts) : published;
}

/** The Repair prompt; docs/prompts.md quotes it verbatim. `{{name}}` is replaced once, left to right. */
export const REPAIR_PROMPT_TEMPLATE = `Your {{language}} project was set up and run on {{machine}}, following its README.md and installing only what {{manifest_file}} declares, and it failed.

Repair attempt {{iteration}} of {{budget}}.
Error class: {{error_class}}
Last lines of the output:

~~~~
{{error_tail}}
~~~~

Diagnose the failure and fix the project: change the source code, {{manifest_file}}, or both, so that it installs and runs on that machine. Keep every functional requirement of the original task and keep README.md accurate. The project is the set of files you wrote before; return the complete project, not only the files you changed.
`;

/** The Repair prompt after an unusable answer (class AgentOutput): nothing ran, so nothing "failed on the machine". */
export const AGENT_OUTPUT_REPAIR_PROMPT_TEMPLATE = `Your previous answer for this {{language}} project could not be used as a project, so nothing was installed or run.

Repair attempt {{iteration}} of {{budget}}.
Error class: AgentOutput
Why the answer was unusable:

~~~~
{{error_tail}}
~~~~

Answer again with the complete project in the required form: every file with a relative path inside the project, {{manifest_file}} included. Keep every functional requirement of the original task.
`;

/**
 * Appended to every prompt of a \`cli\` or \`openai\` agent whose spec has \`run_file: true\` (the
 * default): how the agent may say that its program needs arguments, input or variables. Not in the
 * paper's prompts; \`run_file: false\` leaves the prompts exactly as published.
 */
export const RUN_FILE_NOTE = `HOW THE PROJECT IS RUN: after installing, the harness runs the project's entry point once, with no arguments and empty standard input, and a program still serving on a TCP port at the time limit counts as started. If the program needs command-line arguments, text on standard input or environment variables to show that it works, add a file envgap.run.json at the top of the project: {"args": ["..."], "stdin": "...", "env": {"NAME": "value"}} (every key optional).
`;

/** A prompt with the run-file note after it, separated by a blank line. */
export function withRunFileNote(prompt: string): string {
  return `${prompt.trimEnd()}\n\n${RUN_FILE_NOTE}`;
}

export interface RepairPromptInput {
  language: Language;
  manifestFile: string;
  errorClass: ErrorClass | null;
  errorTail: string;
  /** 1-based repair attempt (iteration 0 is Gen). */
  iteration: number;
  /** The repair budget k. */
  budget: number;
  /** The machine the project ran on, as the prompt names it (src/catalog/environmentSentence.ts); default the paper's, "a clean Ubuntu 22.04 machine". */
  machine?: string;
}

export function repairPrompt(input: RepairPromptInput): string {
  const template = input.errorClass === 'AgentOutput' ? AGENT_OUTPUT_REPAIR_PROMPT_TEMPLATE : REPAIR_PROMPT_TEMPLATE;
  return renderTemplate(template, {
    language: ECOSYSTEMS[input.language].displayName,
    manifest_file: input.manifestFile,
    error_class: input.errorClass ?? 'unclassified',
    error_tail: input.errorTail.trimEnd() || '(no output)',
    iteration: String(input.iteration),
    budget: String(input.budget),
    machine: input.machine ?? PAPER_MACHINE,
  });
}

/** Single pass, so placeholder-like text inside a value (an error tail) is never expanded. */
export function renderTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`template placeholder {{${name}}} has no value`);
    return value;
  });
}
