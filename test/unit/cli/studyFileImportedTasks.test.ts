import { loadCatalog } from '../../../src/catalog/catalog';
import { parseStudyFile } from '../../../src/cli/studyFile';
import { IMPORTED_PROMPT_CHARS } from '../../../src/domain/study';

// `imported_tasks`: tasks from outside the catalog (envgap import harbor --protocol gap, envgap import inspect).
const catalog = loadCatalog();
const study = (tasks: string, imported: string) => `name: s
agents: [{ kind: replay, name: r, path: rec }]
languages: [python]
tasks: ${tasks}
budget: 0
imported_tasks:
${imported}`;
const task = (id: string, prompt = 'Write it.') => `  - { id: ${id}, title: "T ${id}", domain: harbor, prompt: "${prompt}" }`;

describe('study file: imported_tasks', () => {
  it('resolves an imported id with its prompt, beside the catalog’s tasks', () => {
    const s = parseStudyFile(study('[p_01, csvtable]', task('csvtable')), 's.yaml', catalog);
    expect(s.tasks.map((t) => t.id)).toEqual(['p_01', 'csvtable']);
    expect(s.tasks[1]).toEqual({ id: 'csvtable', title: 'T csvtable', domain: 'harbor', prompt: 'Write it.' });
    expect(s.tasks[0]!.prompt).toBeUndefined();
  });

  it('refuses an id neither in the catalog nor imported, an imported id twice, one that is a catalog id, a prompt too long', () => {
    expect(() => parseStudyFile(study('[other]', task('csvtable')), 's.yaml', catalog)).toThrow(/s\.yaml:4:9: tasks\[0\]: unknown task "other"/);
    expect(() => parseStudyFile(study('[a]', `${task('a')}\n${task('a')}`), 's.yaml', catalog)).toThrow('imported_tasks[1]: imported task "a" is listed twice (first as imported_tasks[0])');
    expect(() => parseStudyFile(study('[p_01]', task('p_01')), 's.yaml', catalog)).toThrow(`imported_tasks[0].id: "p_01" is a catalog task's id; an imported task needs another`);
    expect(() => parseStudyFile(study('[a]', task('a', 'x'.repeat(IMPORTED_PROMPT_CHARS + 1))), 's.yaml', catalog)).toThrow(`imported_tasks[0].prompt: at most ${IMPORTED_PROMPT_CHARS} characters`);
  });
});
