import { declaredDependencies } from '../../src/ecosystems/declared';
import { capMessage, excerpt, EXCERPT_CHARS } from '../../src/text/excerpt';
import { parseCMakeLists } from '../../src/ecosystems/cpp/manifest';
import { parsePom } from '../../src/ecosystems/java/manifest';
import { parsePackageJson } from '../../src/ecosystems/javascript/manifest';
import { ManifestError, MAX_MANIFEST_CHARS } from '../../src/ecosystems/manifestError';
import { parseRequirements } from '../../src/ecosystems/python/requirements';

// Issue 8: a 20 MB line was echoed whole in an error. Every parser caps what it quotes.
const BIG = 'x'.repeat(20_000_000);
/** For the slower second cases of a parser. */
const MID = 'x'.repeat(1_000_000);

/** The warnings, or the ManifestError's message, of one parse. */
function messages(parse: () => { warnings: string[] }): string[] {
  try {
    return parse().warnings;
  } catch (e) {
    expect(e).toBeInstanceOf(ManifestError);
    return [(e as Error).message];
  }
}

describe('excerpt', () => {
  it('keeps short text and cuts long text, saying how much is left out', () => {
    expect(excerpt('abc')).toBe('abc');
    expect(excerpt('a'.repeat(EXCERPT_CHARS))).toBe('a'.repeat(EXCERPT_CHARS));
    expect(excerpt('a'.repeat(EXCERPT_CHARS + 5))).toBe(`${'a'.repeat(EXCERPT_CHARS)}… (5 more characters)`);
    expect(excerpt('abcdef', 3)).toBe('abc… (3 more characters)');
  });

  it('never cuts a surrogate pair', () => {
    expect(excerpt('ab😀cd', 3)).toBe('ab… (4 more characters)');
  });

  it('caps whole messages, and ManifestError caps its own', () => {
    expect(capMessage(BIG).length).toBeLessThan(2_100);
    const err = new ManifestError(BIG, 3, BIG);
    expect(err.message.length).toBeLessThan(2_100);
    expect(err.reason.length).toBeLessThan(2_100);
    expect(err.message).toMatch(/^x{200}… \(19999800 more characters\):3: x+… \(\d+ more characters\)/);
  });
});

describe('every manifest parser caps the text it quotes (20 MB lines)', () => {
  it.each<[string, () => { warnings: string[] }]>([
    ['python: a -r path', () => parseRequirements(`-r ${BIG}\n`, { fileName: 'requirements.txt' })],
    ['python: a continuation line', () => parseRequirements(`--opt\\\n${BIG}\n`, { fileName: 'requirements.txt' })],
    ['python: an egg name', () => parseRequirements(`git+https://x/y#egg=a=${BIG}\n`, { fileName: 'requirements.txt' })],
    ['java: an unresolved property', () => parsePom(`<project><dependencies><dependency><artifactId>\${${BIG}}</artifactId></dependency></dependencies></project>`, { fileName: 'pom.xml' })],
    ['java: a repeated artifactId', () => parsePom(`<project><dependencies>${`<dependency><artifactId>${MID}</artifactId></dependency>`.repeat(2)}</dependencies></project>`, { fileName: 'pom.xml' })],
    ['java: malformed XML', () => parsePom(`<project><${MID}></project>`, { fileName: 'pom.xml' })],
    ['javascript: a bad spec', () => parsePackageJson(`{"dependencies": {"${BIG}": 3}}`, { fileName: 'package.json' })],
    ['javascript: a repeated key', () => parsePackageJson(`{"dependencies": {"${BIG}": "1", "${BIG}": "2"}}`, { fileName: 'package.json' })],
    ['javascript: invalid JSON', () => parsePackageJson(`{"dependencies": {"a": "${BIG}`, { fileName: 'package.json' })],
    ['cpp: an unresolved package name', () => parseCMakeLists(`find_package(\${${BIG}})\n`, { fileName: 'CMakeLists.txt' })],
    ['cpp: a missing include', () => parseCMakeLists(`include(${MID}/deps.cmake)\nadd_subdirectory(${MID})\n`, { fileName: 'CMakeLists.txt' })],
  ])('%s', (_, parse) => {
    const found = messages(parse);
    expect(found.length).toBeGreaterThan(0);
    for (const m of found) expect(m.length).toBeLessThan(3_000);
  });

  it('D1 in the pipeline stores a capped problem', () => {
    const { problem } = declaredDependencies('javascript', { 'package.json': `{"dependencies": {"${BIG}": 3}}` });
    expect(problem).toMatch(/more characters/);
    expect(problem!.length).toBeLessThan(3_000);
  });
});

describe('D1 in the pipeline: includes name files of the project map only', () => {
  const SECRET = 'SECRET-CONTENT';
  // A map as hostile as it gets: it even holds the paths the includes name.
  const hostile = { '/etc/passwd': SECRET, '../../etc/passwd': SECRET, '/proc/self/environ': SECRET, '../x.txt': SECRET };

  it.each(['-r /etc/passwd', '-r ../../etc/passwd', '-r /proc/self/environ', '-c /etc/shadow'])('%s is not followed', (line) => {
    const files = { ...hostile, 'requirements.txt': `flask\n${line}\n` };
    const declared = declaredDependencies('python', files);
    expect(declared).toMatchObject({ names: ['flask'], problem: null });
    expect(JSON.stringify(declared)).not.toContain(SECRET);
  });

  it('the parser warns, naming the line and no content', () => {
    for (const line of ['-r /etc/passwd', '-r ../../etc/passwd', '-r /proc/self/environ']) {
      const { warnings } = parseRequirements(`${line}\n`, { fileName: 'requirements.txt', readInclude: (p) => (hostile as Record<string, string>)[p] });
      expect(warnings).toEqual([expect.stringMatching(new RegExp(`^requirements\\.txt:1: ${line.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: `))]);
      expect(warnings[0]).not.toContain(SECRET);
    }
  });

  it('cpp includes stay under the project root as well', () => {
    const files = { ...hostile, 'CMakeLists.txt': 'include(/etc/passwd)\ninclude(../../etc/passwd)\nfind_package(ZLIB)\n' };
    const declared = declaredDependencies('cpp', files);
    expect(declared).toMatchObject({ names: ['zlib'], problem: null });
    expect(JSON.stringify(declared)).not.toContain(SECRET);
  });
});

describe('manifests larger than any real one', () => {
  it('a pom.xml or CMakeLists.txt over the limit is refused before parsing, with a short message', () => {
    const huge = 'y'.repeat(MAX_MANIFEST_CHARS + 1);
    expect(() => parsePom(`<project>${huge}</project>`, { fileName: 'pom.xml' })).toThrow(/more than any manifest/);
    expect(() => parseCMakeLists(`# ${huge}\n`, { fileName: 'CMakeLists.txt' })).toThrow(new ManifestError('CMakeLists.txt', null, `${huge.length + 3} characters, more than any manifest (the limit is ${MAX_MANIFEST_CHARS}); not parsed`));
  });
});
