import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LANGUAGES } from '../../../src/domain/instance';
import { DEFAULT_CATALOG_DIR, loadCatalog } from '../../../src/catalog/catalog';
import { envgapData } from '../../helpers/data';

describe('the repository catalog', () => {
  const catalog = loadCatalog();

  it('holds the 50 EnvGap tasks with a prompt in every language', () => {
    expect(catalog.tasks).toHaveLength(50);
    for (const task of catalog.tasks) {
      for (const language of LANGUAGES) expect(catalog.prompt(task.id, language)).toMatch(/^TASK: /);
    }
  });

  it('looks a task up by id', () => {
    expect(catalog.task('p_01')).toMatchObject({ id: 'p_01', title: 'CSV Statistical Analyzer', domain: 'Data Processing' });
  });

  it('names the catalog file and the id when a task is unknown', () => {
    expect(() => catalog.task('p_99')).toThrow(`unknown task "p_99": not in ${path.join(DEFAULT_CATALOG_DIR, 'tasks.json')}`);
    expect(() => catalog.prompt('p_99', 'python')).toThrow(/unknown task "p_99"/);
  });

  it('returns the prompt text for the language asked', () => {
    expect(catalog.prompt('p_01', 'python')).toContain('requirements.txt');
    expect(catalog.prompt('p_01', 'java')).toContain('pom.xml');
    expect(catalog.prompt('p_01', 'javascript')).toContain('package.json');
    expect(catalog.prompt('p_01', 'cpp')).toContain('CMakeLists.txt');
  });

  it('matches the published prompts byte for byte', () => {
    const published = envgapData('prompts');
    for (const task of catalog.tasks) {
      for (const language of LANGUAGES) {
        expect(catalog.prompt(task.id, language)).toBe(fs.readFileSync(path.join(published, language, `${task.id}.md`), 'utf8'));
      }
    }
  });
});

describe('loadCatalog', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('rejects a catalog that does not match the schema, naming the file', () => {
    fs.writeFileSync(path.join(dir, 'tasks.json'), JSON.stringify({ schema: 'envgap.catalog/v1', source: 's', tasks: [{ id: 'p_01' }] }));
    expect(() => loadCatalog(dir)).toThrow(`invalid catalog ${path.join(dir, 'tasks.json')}`);
  });

  it('reports a missing catalog file', () => {
    expect(() => loadCatalog(dir)).toThrow(/cannot read catalog .*tasks\.json/);
  });

  it('reports a missing prompt file', () => {
    const task = { id: 't1', title: 'T', domain: 'D', complexity: 'Low', dependency_relevance: 'Low', description: '', stdlib_sufficient: null };
    fs.writeFileSync(path.join(dir, 'tasks.json'), JSON.stringify({ schema: 'envgap.catalog/v1', source: 's', tasks: [task] }));
    expect(() => loadCatalog(dir).prompt('t1', 'java')).toThrow(/task "t1" has no java prompt: cannot read .*prompts\/java\/t1\.md/);
  });
});
