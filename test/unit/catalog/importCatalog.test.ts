import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LANGUAGES } from '../../../src/domain/instance';
import { importCatalog } from '../../../src/catalog/importCatalog';

function makeSource(taskIds: string[], skip?: { id: string; language: string }): string {
  const src = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-src-'));
  const rows = taskIds.map((id, i) => `${id},Task ${i + 1},Data Processing,Medium,High,"Reads X, writes ""Y"""`);
  fs.mkdirSync(path.join(src, 'prompts'));
  fs.writeFileSync(
    path.join(src, 'prompts', 'prompt_overview.csv'),
    ['prompt_id,task_title,category,complexity,dependency_relevance,description', ...rows].join('\r\n') + '\r\n',
  );
  for (const language of LANGUAGES) {
    fs.mkdirSync(path.join(src, 'prompts', language));
    for (const id of taskIds) {
      if (skip && skip.id === id && skip.language === language) continue;
      fs.writeFileSync(path.join(src, 'prompts', language, `${id}.md`), `TASK ${id} in ${language}\n`);
    }
  }
  return src;
}

describe('importCatalog', () => {
  const temps: string[] = [];
  afterAll(() => temps.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('keeps the a-priori stdlib annotations of the catalog it replaces (the data set has none)', () => {
    const src = makeSource(['p_01', 'p_02']);
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-out-'));
    temps.push(src, out);
    importCatalog(src, out);
    const file = JSON.parse(fs.readFileSync(path.join(out, 'tasks.json'), 'utf8'));
    file.tasks[0].stdlib_sufficient = { python: true, java: false, javascript: true, cpp: false };
    file.tasks[0].stdlib_reason = 'reads JSON';
    fs.writeFileSync(path.join(out, 'tasks.json'), JSON.stringify(file));
    importCatalog(src, out);
    const again = JSON.parse(fs.readFileSync(path.join(out, 'tasks.json'), 'utf8'));
    expect(again.tasks[0]).toMatchObject({ id: 'p_01', stdlib_sufficient: { python: true, java: false, javascript: true, cpp: false }, stdlib_reason: 'reads JSON' });
    expect(again.tasks[1].stdlib_sufficient).toBeNull();
    expect(again.tasks[1]).not.toHaveProperty('stdlib_reason');
  });

  it('writes tasks.json and copies every prompt', () => {
    const src = makeSource(['p_01', 'p_02']);
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-out-'));
    temps.push(src, out);

    expect(importCatalog(src, out)).toEqual({ tasks: 2 });

    const file = JSON.parse(fs.readFileSync(path.join(out, 'tasks.json'), 'utf8'));
    expect(file.schema).toBe('envgap.catalog/v1');
    expect(file.source).toContain('Bhanu Prakash Vangala and Tanu Malik, CC BY 4.0');
    expect(file.tasks[0]).toEqual({
      id: 'p_01',
      title: 'Task 1',
      domain: 'Data Processing',
      complexity: 'Medium',
      dependency_relevance: 'High',
      description: 'Reads X, writes "Y"',
      stdlib_sufficient: null,
    });
    for (const language of LANGUAGES) {
      expect(fs.readFileSync(path.join(out, 'prompts', language, 'p_02.md'), 'utf8')).toBe(`TASK p_02 in ${language}\n`);
    }
  });

  it('fails before writing anything when a prompt is missing', () => {
    const src = makeSource(['p_01', 'p_02'], { id: 'p_02', language: 'cpp' });
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-out-'));
    temps.push(src, out);

    expect(() => importCatalog(src, out)).toThrow(/task p_02 has no cpp prompt: .*cpp\/p_02\.md is missing/);
    expect(fs.readdirSync(out)).toEqual([]);
  });

  it('rejects duplicate task ids', () => {
    const src = makeSource(['p_01', 'p_01']);
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-out-'));
    temps.push(src, out);
    expect(() => importCatalog(src, out)).toThrow(/duplicate task id "p_01"/);
  });
});
