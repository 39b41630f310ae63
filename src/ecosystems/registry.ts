import type { Language } from '../domain/instance';
import type { AnyEcosystem } from './ecosystem';
import { CPP } from './cpp/ecosystem';
import { JAVA } from './java/ecosystem';
import { JAVASCRIPT } from './javascript/ecosystem';
import { PYTHON } from './python/ecosystem';

/**
 * Every language's record, by language: callers look a language up here rather than switch on it.
 * To add a language (docs/ecosystems.md, "Adding a language"): a folder with its parsers, static
 * baseline and `ecosystem.ts` record, listed here; a runner in src/activities/runners, listed in
 * RUNNERS; the language in LANGUAGES (src/domain/instance.ts).
 */
export const ECOSYSTEMS = { python: PYTHON, java: JAVA, javascript: JAVASCRIPT, cpp: CPP } as const satisfies { [L in Language]: AnyEcosystem & { language: L } };

export type Ecosystems = typeof ECOSYSTEMS;

/** The artefact names of a language's executions, as a string-literal union. */
export type ArtefactOf<L extends Language> = Ecosystems[L]['artefacts'][number];

/** The steps a language's failure classifier knows. */
export type StepOf<L extends Language> = Parameters<Ecosystems[L]['classifyFailure']>[0]['step'];
