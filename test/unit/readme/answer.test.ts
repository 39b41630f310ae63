import { formatReadmeAnswer, parseReadmeAnswer } from '../../../src/readme/answer';
import { fileStructure, LISTED_FILES, readmePrompt } from '../../../src/readme/prompt';

const reply = (json: string, bash = 'pip install -e .') => `I looked at the README.\n\n\`\`\`json\n${json}\n\`\`\`\n\nThe script:\n\`\`\`bash\n${bash}\n\`\`\`\nDone.`;

describe('parseReadmeAnswer: EnConda\'s ```json then ```bash', () => {
  test('the detected errors and the script', () => {
    const r = parseReadmeAnswer(reply('{"detected_errors": [{"error_type": " E1 ", "error_description": "wrong name", "fix_suggestion": "pip install inflect"}]}', 'set -e\npip install .'));
    expect(r).toEqual({ ok: true, answer: { detected_errors: [{ error_type: 'E1', error_description: 'wrong name', fix_suggestion: 'pip install inflect' }], setup_script: 'set -e\npip install .' } });
  });

  test('no script block: the answer stands, its script is null', () => {
    const r = parseReadmeAnswer('```json\n{"detected_errors": []}\n```');
    expect(r).toEqual({ ok: true, answer: { detected_errors: [], setup_script: null } });
  });

  test.each([
    ['no json block', 'The README is fine.', /no ```json block/],
    ['an unterminated block', '```json\n{"detected_errors": []}', /no ```json block/],
    ['JSON that does not parse', reply('{"detected_errors": [}'), /is not JSON/],
    ['the wrong shape', reply('{"errors": []}'), /detected_errors/],
    ['an error without its fix', reply('{"detected_errors": [{"error_type": "E1", "error_description": "x"}]}'), /detected_errors\.0\.fix_suggestion|fix_suggestion/],
  ])('%s is an invalid answer, with the reason', (_what, text, why) => {
    const r = parseReadmeAnswer(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem).toMatch(why);
  });

  test('format then parse gives the answer back', () => {
    const answer = { detected_errors: [{ error_type: 'E6', error_description: 'order', fix_suggestion: 'create the venv first' }], setup_script: 'python3 -m venv .venv' };
    expect(parseReadmeAnswer(formatReadmeAnswer(answer))).toEqual({ ok: true, answer });
  });
});

describe("upstream's prompt", () => {
  test('the README and at most 50 files of the repository, as upstream lists them', () => {
    const files = Array.from({ length: 70 }, (_, i) => `src/f${String(i).padStart(2, '0')}.py`);
    const structure = fileStructure('jaraco/inflect', files);
    expect(structure.split('\n')).toEqual(['Repository: jaraco/inflect', 'File structure:', ...files.slice(0, LISTED_FILES).map((f) => `  file: ${f}`)]);
    const prompt = readmePrompt('Install with pip install inflection', structure);
    expect(prompt).toContain('## Repository Structure:\nRepository: jaraco/inflect\nFile structure:\n  file: src/f00.py');
    expect(prompt).toContain('## README Content:\nInstall with pip install inflection\n\nPlease analyze the above README file');
    expect(prompt).toContain('"error_type": "E1|E2|E4|E6|E7|E8"');
    expect(prompt).not.toContain('{{');
  });

  test('without a repository, upstream\'s words', () => {
    expect(fileStructure(null, null)).toBe('Unable to get file structure information');
  });
});
