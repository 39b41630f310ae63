import { loadCatalog } from '../../../src/catalog/catalog';
import { REPAIR_PROMPT_TEMPLATE, genPrompt, renderTemplate, repairPrompt } from '../../../src/catalog/prompts';
import { MANIFEST_FILE } from '../../../src/ecosystems/manifestFiles';

describe('genPrompt', () => {
  it('is the catalog prompt, unchanged', () => {
    const catalog = loadCatalog();
    expect(genPrompt(catalog, 'p_07', 'cpp')).toBe(catalog.prompt('p_07', 'cpp'));
  });
});

describe('MANIFEST_FILE', () => {
  it('names the manifest of every language', () => {
    expect(MANIFEST_FILE).toEqual({ python: 'requirements.txt', java: 'pom.xml', javascript: 'package.json', cpp: 'CMakeLists.txt' });
  });
});

describe('repairPrompt', () => {
  const input = {
    language: 'python' as const,
    manifestFile: MANIFEST_FILE.python,
    errorClass: 'MissingDep' as const,
    errorTail: "ModuleNotFoundError: No module named 'yaml'\n",
    iteration: 2,
    budget: 10,
  };

  it('names the machine it is given, the paper\'s by default', () => {
    expect(repairPrompt(input)).toContain('Your Python project was set up and run on a clean Ubuntu 22.04 machine, following');
    expect(repairPrompt({ ...input, machine: 'a clean Debian 12 (bookworm) machine' })).toContain('run on a clean Debian 12 (bookworm) machine, following');
  });

  it('fills every placeholder', () => {
    const prompt = repairPrompt(input);
    expect(prompt).not.toMatch(/\{\{\w+\}\}/);
    expect(prompt).toContain('Your Python project');
    expect(prompt).toContain('only what requirements.txt declares');
    expect(prompt).toContain('Repair attempt 2 of 10.');
    expect(prompt).toContain('Error class: MissingDep');
    expect(prompt).toContain("~~~~\nModuleNotFoundError: No module named 'yaml'\n~~~~");
  });

  it('after an unusable answer, says that nothing ran and why the answer could not be used', () => {
    const prompt = repairPrompt({ ...input, errorClass: 'AgentOutput', errorTail: 'unsafe project path "../x"' });
    expect(prompt).not.toMatch(/\{\{\w+\}\}/);
    expect(prompt).toContain('could not be used as a project, so nothing was installed or run');
    expect(prompt).toContain('Error class: AgentOutput');
    expect(prompt).toContain('~~~~\nunsafe project path "../x"\n~~~~');
    expect(prompt).not.toContain('and it failed');
  });

  it('says when the error is unclassified or the output is empty', () => {
    const prompt = repairPrompt({ ...input, errorClass: null, errorTail: '  \n' });
    expect(prompt).toContain('Error class: unclassified');
    expect(prompt).toContain('~~~~\n(no output)\n~~~~');
  });

  it('never expands placeholder-like text inside the error output', () => {
    expect(repairPrompt({ ...input, errorTail: 'got {{budget}} literally' })).toContain('got {{budget}} literally');
  });

  it('uses only placeholders it fills', () => {
    const names = [...REPAIR_PROMPT_TEMPLATE.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]);
    expect(new Set(names)).toEqual(new Set(['language', 'manifest_file', 'iteration', 'budget', 'error_class', 'error_tail', 'machine']));
  });
});

describe('renderTemplate', () => {
  it('throws on a placeholder without a value', () => {
    expect(() => renderTemplate('a {{missing}}', {})).toThrow('template placeholder {{missing}} has no value');
  });
});
