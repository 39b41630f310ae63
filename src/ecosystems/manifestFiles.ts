import { LANGUAGES, type Language } from '../domain/instance';
import { ECOSYSTEMS } from './registry';

/** The file each language's dependency manifest lives in, at the top of a project (as the task prompts name it). */
export const MANIFEST_FILE: Record<Language, string> = Object.fromEntries(LANGUAGES.map((l) => [l, ECOSYSTEMS[l].manifestFile])) as Record<Language, string>;
