import { loadCatalog } from '../../../src/catalog/catalog';
import { parseStudyFile, StudyFileError } from '../../../src/cli/studyFile';

const catalog = loadCatalog();

function problems(text: string): string[] {
  try {
    parseStudyFile(text, '/studies/s.yaml', catalog);
  } catch (err) {
    if (err instanceof StudyFileError) return err.problems;
    throw err;
  }
  throw new Error('expected the study file to be rejected');
}

const valid = `name: s1
agents:
  - kind: replay
    name: rec
    path: ../corpus
languages: [python]
tasks: [p_01, p_04]
`;

test('a valid file gets defaults, resolved tasks and replay paths relative to the file', () => {
  const s = parseStudyFile(valid, '/studies/s.yaml', catalog);
  expect(s).toMatchObject({ name: 's1', trials: 1, budget: 10, concurrency: 4, languages: ['python'] });
  expect(s.tasks).toEqual([
    { id: 'p_01', title: 'CSV Statistical Analyzer', domain: 'Data Processing' },
    { id: 'p_04', title: 'YAML Config Merger', domain: 'Data Processing' },
  ]);
  expect(s.agents[0]).toEqual({ kind: 'replay', name: 'rec', path: '/corpus' });
  expect(s.limits.run_timeout_s).toBe(120);
});

test('"tasks: all" takes the whole catalog', () => {
  expect(parseStudyFile(valid.replace('[p_01, p_04]', 'all'), 's.yaml', catalog).tasks).toHaveLength(50);
});

test('a wrong field is named with its line and column', () => {
  const p = problems(valid.replace('languages: [python]', 'languages: [python, rust]'));
  expect(p).toEqual([expect.stringMatching(/^\/studies\/s\.yaml:6:\d+: languages\[1\]: /)]);
});

test('a missing field is reported at its parent', () => {
  const p = problems(valid.replace('    name: rec\n', ''));
  expect(p[0]).toMatch(/s\.yaml:3:\d+: agents\[0\]\.name: /);
});

test('an unknown task id names the catalog and the line', () => {
  const p = problems(valid.replace('p_04', 'p_77'));
  expect(p).toEqual([expect.stringMatching(/s\.yaml:7:\d+: tasks\[1\]: unknown task "p_77"/)]);
});

test('a budget below zero and an unknown key are both reported', () => {
  const p = problems(valid + 'budget: -1\nbugdet: 3\n');
  expect(p.some((x) => /s\.yaml:8:\d+: budget: /.test(x))).toBe(true);
  expect(p.some((x) => /unrecognized|bugdet/i.test(x))).toBe(true);
});

test('a secret in an agent spec is refused', () => {
  const p = problems(valid.replace('    path: ../corpus', '    path: ../corpus\n    api_key: sk-123'));
  expect(p.join('\n')).toMatch(/secret/);
  expect(p.join('\n')).not.toContain('sk-123');
});

test('two agents with one name are refused', () => {
  const p = problems(valid.replace('languages:', '  - kind: replay\n    name: rec\n    path: x\nlanguages:'));
  expect(p.join('\n')).toMatch(/agents\[1\]\.name: agent name "rec" is used twice/);
});

test('broken YAML is reported with its position', () => {
  expect(problems('name: [unclosed\n')[0]).toMatch(/s\.yaml:\d+:\d+: YAML: /);
});

test('tasks may be listed per language; every language needs a list', () => {
  const perLanguage = valid.replace('languages: [python]\ntasks: [p_01, p_04]', 'languages: [python, cpp]\ntasks:\n  python: [p_01]\n  cpp: [p_11, p_02]');
  const s = parseStudyFile(perLanguage, 's.yaml', catalog);
  expect(s.tasksByLanguage?.python?.map((t) => t.id)).toEqual(['p_01']);
  expect(s.tasksByLanguage?.cpp?.map((t) => t.id)).toEqual(['p_11', 'p_02']);
  const missing = problems(valid.replace('languages: [python]\ntasks: [p_01, p_04]', 'languages: [python, java]\ntasks:\n  python: [p_01]'));
  expect(missing).toEqual([expect.stringMatching(/s\.yaml:6:\d+: languages\[1\]: "tasks" lists tasks per language but none for java/)]);
  const unknown = problems(valid.replace('languages: [python]\ntasks: [p_01, p_04]', 'languages: [cpp]\ntasks:\n  cpp: [p_11, p_99]'));
  expect(unknown).toEqual([expect.stringMatching(/s\.yaml:8:\d+: tasks\.cpp\[1\]: unknown task "p_99"/)]);
});
