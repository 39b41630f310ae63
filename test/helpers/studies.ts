import * as path from 'node:path';
import { loadCatalog } from '../../src/catalog/catalog';
import { DEFAULT_LIMITS, type StudyInput } from '../../src/domain/study';
import { REPO_ROOT } from './harness';

/** A study of the quickstart's recorded Python answers (corpus/quickstart) on the given tasks, one at a time. */
export function quickstartPythonStudy(name: string, tasks: string[], overrides: Partial<StudyInput> = {}): StudyInput {
  const catalog = loadCatalog();
  return {
    name,
    agents: [{ kind: 'replay', name: 'replay', path: path.join(REPO_ROOT, 'corpus/quickstart') }],
    languages: ['python'],
    tasks: tasks.map((id) => ({ id, title: catalog.task(id).title, domain: catalog.task(id).domain })),
    trials: 1,
    budget: 10,
    concurrency: 1,
    limits: { ...DEFAULT_LIMITS, run_timeout_s: 60 },
    ...overrides,
  };
}
