import { declaredDependencies } from '../../../../src/ecosystems/declared';
import { withoutRequirements } from '../../../../src/ecosystems/removal/requirementsRemoval';

const d1 = (files: Record<string, string>) => declaredDependencies('python', files).names;

describe('requirements.txt without a name', () => {
  test('the line of the name goes, by its normalised name; the others stay as written', () => {
    const files = { 'requirements.txt': 'click==8.1.7\ncolorama==0.4.6\n# a comment\nPyYAML>=6\n', 'main.py': 'import click\n' };
    const r = withoutRequirements(files, ['colorama', 'pyyaml']);
    expect(r.files['requirements.txt']).toBe('click==8.1.7\n# a comment\n');
    expect(r.removed).toEqual(['colorama', 'pyyaml']);
    expect(r.notFound).toEqual([]);
    expect(r.files['main.py']).toBe(files['main.py']);
    expect(d1(r.files)).toEqual(['click']);
  });

  test('continuations, extras, markers, options after the requirement and repeated lines all go with it', () => {
    const text = 'requests[socks] >= 2 ; python_version >= "3.8" \\\n    --hash=sha256:abc\nnumpy\nRequests==2.31\n';
    const r = withoutRequirements({ 'requirements.txt': text }, ['requests']);
    expect(r.files['requirements.txt']).toBe('numpy\n');
    expect(d1(r.files)).toEqual(['numpy']);
  });

  test('a name required in a file included with -r is taken out there; CRLF kept', () => {
    const files = { 'requirements.txt': '-r base.txt\r\nflask\r\n', 'base.txt': 'Jinja2\r\nitsdangerous\r\n' };
    const r = withoutRequirements(files, ['jinja2']);
    expect(r.files['base.txt']).toBe('itsdangerous\r\n');
    expect(r.files['requirements.txt']).toBe(files['requirements.txt']);
    expect(d1(r.files)).toEqual(['flask', 'itsdangerous']);
  });

  test('a name no line requires, and a project without requirements.txt, are not found', () => {
    expect(withoutRequirements({ 'requirements.txt': 'flask\n' }, ['django'])).toMatchObject({ removed: [], notFound: ['django'] });
    expect(withoutRequirements({ 'main.py': '' }, ['flask'])).toMatchObject({ removed: [], notFound: ['flask'] });
  });

  test('a direct reference with #egg= is removed by its project name', () => {
    const r = withoutRequirements({ 'requirements.txt': 'git+https://example.org/x.git#egg=My_Pkg\nflask\n' }, ['my-pkg']);
    expect(r.files['requirements.txt']).toBe('flask\n');
  });
});
