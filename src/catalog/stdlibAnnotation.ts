import { LANGUAGES, type Language } from '../domain/instance';
import type { StdlibAnnotation } from '../metrics/stdlibSufficiency';
import type { CatalogTask } from './schema';

/** A task's a-priori standard-library sufficiency in one language; null where the catalog does not say. */
export function stdlibSufficientIn(task: Pick<CatalogTask, 'stdlib_sufficient'>, language: Language): boolean | null {
  const s = task.stdlib_sufficient;
  return s === null || typeof s === 'boolean' ? s : s[language];
}

/** The catalog's annotation as M7 takes it (`<language>/<task>` -> sufficient), for every task and language it annotates. */
export function stdlibAnnotation(tasks: readonly Pick<CatalogTask, 'id' | 'stdlib_sufficient'>[]): StdlibAnnotation {
  const out: Record<string, boolean> = {};
  for (const task of tasks) {
    for (const language of LANGUAGES) {
      const sufficient = stdlibSufficientIn(task, language);
      if (sufficient !== null) out[`${language}/${task.id}`] = sufficient;
    }
  }
  return out;
}
