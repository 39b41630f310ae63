import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadCatalog } from '../../../src/catalog/catalog';
import { actualEnvironmentSentence, PAPER_ENVIRONMENT_SENTENCE, repairMachine, withEnvironmentSentence } from '../../../src/catalog/environmentSentence';
import { DEBIAN_RELEASES, PROGRAM_NAMES, runtimeImageFacts, UNNAMED_PACKAGES } from '../../../src/catalog/imageFacts';
import { genPrompt } from '../../../src/catalog/prompts';
import { LANGUAGES } from '../../../src/domain/instance';
import { NPM_VERSION } from '../../../src/ecosystems/javascript/ecosystem';
import { ECOSYSTEMS } from '../../../src/ecosystems/registry';

describe('the prompts\' environment sentence', () => {
  const catalog = loadCatalog();

  it('the image facts come from the recipes\' packages and the suite\'s versions (bookworm, as the images report them)', () => {
    // What `node --version`, `python3 --version`, `java -version`, `mvn -v`, `g++ --version`, `cmake --version` say in the images built from bookworm.
    expect(runtimeImageFacts('python', 'bookworm')).toEqual({ os: 'Debian 12 (bookworm)', programs: [{ name: 'Python', version: '3.11' }] });
    expect(runtimeImageFacts('java', 'bookworm').programs).toEqual([{ name: 'OpenJDK', version: '17' }, { name: 'Maven', version: '3.8' }]);
    expect(runtimeImageFacts('javascript', 'bookworm').programs).toEqual([{ name: 'Node.js', version: '18' }, { name: 'npm', version: NPM_VERSION.split('.').slice(0, 2).join('.') }]);
    expect(runtimeImageFacts('cpp', 'bookworm').programs.map((p) => `${p.name} ${p.version}`)).toEqual(['G++ 12', 'CMake 3.25', 'GNU Make 4.3', 'pkg-config 1.8', 'Git 2.39']);
  });

  it('every program a recipe installs that a prompt names has a version in each known suite, but Java\'s on trixie (no OpenJDK 17 there)', () => {
    for (const suite of Object.keys(DEBIAN_RELEASES)) {
      for (const language of LANGUAGES) {
        const missing = runtimeImageFacts(language, suite).programs.filter((p) => p.version === null).map((p) => p.name);
        expect([suite, language, missing]).toEqual([suite, language, suite === 'trixie' && language === 'java' ? ['OpenJDK'] : []]);
      }
    }
    expect(ECOSYSTEMS.java.image.packages).toContain('openjdk-17-jdk-headless');
  });

  it('every package of every recipe is either named in the prompt or listed as not named', () => {
    for (const language of LANGUAGES) {
      for (const p of ECOSYSTEMS[language].image.packages) expect([language, p, p in PROGRAM_NAMES || UNNAMED_PACKAGES.includes(p)]).toEqual([language, p, true]);
    }
  });

  it('a suite it has no table for is named, its programs unversioned', () => {
    expect(runtimeImageFacts('python', 'sid')).toEqual({ os: 'Debian (sid)', programs: [{ name: 'Python', version: null }] });
  });

  it('every one of the 200 catalog prompts has the published sentence, once', () => {
    for (const task of catalog.tasks) {
      for (const language of LANGUAGES) {
        const prompt = catalog.prompt(task.id, language);
        expect([task.id, language, prompt.match(new RegExp(PAPER_ENVIRONMENT_SENTENCE.source, 'gm'))?.length]).toEqual([task.id, language, 1]);
      }
    }
  });

  it('actual: only the sentence changes, to the image\'s facts; paper: the published prompt, unchanged', () => {
    const facts = runtimeImageFacts('javascript', 'bookworm');
    const published = catalog.prompt('p_49', 'javascript');
    const actual = genPrompt(catalog, 'p_49', 'javascript', { environment: 'actual', facts });
    expect(actual).not.toContain('Ubuntu');
    expect(actual).toContain(`Create a complete JavaScript project for a clean Debian 12 (bookworm) machine with only Node.js 18 and npm ${facts.programs[1].version} installed. Include:`);
    expect(actual.replace(actualEnvironmentSentence('javascript', facts), 'X')).toBe(published.replace(PAPER_ENVIRONMENT_SENTENCE, 'X'));
    expect(genPrompt(catalog, 'p_49', 'javascript', { environment: 'paper', facts })).toBe(published);
    expect(genPrompt(catalog, 'p_49', 'javascript')).toBe(published);
  });

  it('states each language\'s programs, listed as a sentence', () => {
    expect(actualEnvironmentSentence('python', runtimeImageFacts('python', 'bookworm'))).toBe('Create a complete Python project for a clean Debian 12 (bookworm) machine with only Python 3.11 installed. Include:');
    expect(actualEnvironmentSentence('java', runtimeImageFacts('java', 'bookworm'))).toBe('Create a complete Java project for a clean Debian 12 (bookworm) machine with only OpenJDK 17 and Maven 3.8 installed. Include:');
    expect(actualEnvironmentSentence('cpp', runtimeImageFacts('cpp', 'bookworm'))).toBe('Create a complete C++ project for a clean Debian 12 (bookworm) machine with only G++ 12, CMake 3.25, GNU Make 4.3, pkg-config 1.8 and Git 2.39 installed. Include:');
    expect(actualEnvironmentSentence('javascript', runtimeImageFacts('javascript', 'trixie'))).toContain('a clean Debian 13 (trixie) machine with only Node.js 20 and npm');
  });

  it('refuses to state facts in a prompt that has no sentence for them', () => {
    const facts = runtimeImageFacts('python', 'bookworm');
    expect(() => withEnvironmentSentence('TASK: x\nWrite it.\n', 'python', 'actual', facts)).toThrow(/no environment sentence .* prompt_environment: paper/);
    expect(withEnvironmentSentence('TASK: x\n', 'python', 'paper', facts)).toBe('TASK: x\n');
  });

  it('the Repair prompt\'s machine follows the same choice', () => {
    const facts = runtimeImageFacts('cpp', 'bookworm');
    expect(repairMachine('actual', facts)).toBe('a clean Debian 12 (bookworm) machine');
    expect(repairMachine('paper', facts)).toBe('a clean Ubuntu 22.04 machine');
  });

  it('docs/prompts.md shows the sentences as generated', () => {
    const doc = fs.readFileSync(path.resolve(__dirname, '../../../docs/prompts.md'), 'utf8');
    for (const language of LANGUAGES) {
      const sentence = actualEnvironmentSentence(language, runtimeImageFacts(language, 'bookworm'));
      expect(doc).toContain(sentence.slice(sentence.indexOf(' with only ')));
    }
  });
});
