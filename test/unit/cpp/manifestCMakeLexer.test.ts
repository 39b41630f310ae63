import { lexCMake } from '../../../src/ecosystems/cpp/cmakeLexer';
import { CMakeVariables } from '../../../src/ecosystems/cpp/manifestVariables';
import { ManifestError } from '../../../src/ecosystems/manifestError';

const lex = (text: string) => lexCMake(text, 'CMakeLists.txt');
const shape = (text: string) => lex(text).map((c) => [c.name, c.args.map((a) => a.text), c.line]);
const lexError = (text: string): ManifestError => {
  try {
    lex(text);
  } catch (e) {
    expect(e).toBeInstanceOf(ManifestError);
    return e as ManifestError;
  }
  throw new Error('expected a ManifestError');
};

describe('lexCMake', () => {
  it('splits commands, lower-casing their names', () => {
    expect(shape('cmake_minimum_required(VERSION 3.14)\nPROJECT(demo CXX)\nFind_Package(fmt)\n')).toEqual([
      ['cmake_minimum_required', ['VERSION', '3.14'], 1],
      ['project', ['demo', 'CXX'], 2],
      ['find_package', ['fmt'], 3],
    ]);
  });

  it('reads arguments across lines, with the line of each', () => {
    const [command] = lex('find_package(Boost 1.74\n  REQUIRED\n  COMPONENTS system\n)');
    expect(command.args.map((a) => [a.text, a.line])).toEqual([['Boost', 1], ['1.74', 1], ['REQUIRED', 2], ['COMPONENTS', 3], ['system', 3]]);
  });

  it('allows spaces between the name and the parenthesis, and several commands on a line', () => {
    expect(shape('set (A 1) set(B 2)')).toEqual([['set', ['A', '1'], 1], ['set', ['B', '2'], 1]]);
  });

  it('skips line comments, also inside arguments and after commands', () => {
    expect(shape('# find_package(Nope)\nfind_package(Boost # why\n  COMPONENTS system) # done\n')).toEqual([['find_package', ['Boost', 'COMPONENTS', 'system'], 2]]);
  });

  it('skips bracket comments of any level, and counts their lines', () => {
    expect(shape('#[[\nfind_package(Hidden)\n]]\n#[==[ find_package(X) ]] still ]==]\nfind_package(Seen)')).toEqual([['find_package', ['Seen'], 5]]);
  });

  it('reads quoted arguments, keeping escapes for later and counting lines', () => {
    const [command, next] = lex('message("a \\"quoted\\" (text) # not a comment\nsecond line")\nset(X 1)');
    expect(command.args).toEqual([{ text: 'a \\"quoted\\" (text) # not a comment\nsecond line', kind: 'quoted', line: 1 }]);
    expect(next.line).toBe(3);
  });

  it('reads bracket arguments literally, dropping a newline right after the opening', () => {
    const [command] = lex('set(S [[\n${not_expanded} "q"]] [=[a]]b]=])');
    expect(command.args.map((a) => [a.text, a.kind])).toEqual([['S', 'unquoted'], ['${not_expanded} "q"', 'bracket'], ['a]]b', 'bracket']]);
  });

  it('keeps parentheses nested in arguments as arguments', () => {
    expect(shape('if((A OR B) AND C)')).toEqual([['if', ['(', 'A', 'OR', 'B', ')', 'AND', 'C'], 1]]);
  });

  it('keeps legacy quotes inside unquoted arguments, and escaped characters', () => {
    expect(shape('add_definitions(-DNAME="a b" a\\ b)')).toEqual([['add_definitions', ['-DNAME="a b"', 'a\\ b'], 1]]);
  });

  it('accepts a byte order mark and CRLF', () => {
    expect(shape('\uFEFFproject(x)\r\nfind_package(ZLIB)\r\n')).toEqual([['project', ['x'], 1], ['find_package', ['ZLIB'], 2]]);
  });

  it.each([
    ['project(x)\nfind_package(fmt\n', 2, 'find_package( is not closed'],
    ['message("never closed)\n', 1, 'quoted argument is not closed'],
    ['set(x [[open)\n', 1, 'bracket [[ is not closed'],
    ['\n#[=[ comment', 2, 'bracket [=[ is not closed'],
    ['project(x)\n\nfoo bar\n', 3, 'expected "(" after foo'],
    ['project(x)\n(oops)', 2, 'unexpected "(": expected a command'],
  ])('rejects %j at its line', (text, line, reason) => {
    const err = lexError(text);
    expect([err.line, err.reason]).toEqual([line, reason]);
  });
});

describe('CMakeVariables', () => {
  const evaluate = (vars: CMakeVariables, text: string) => vars.evaluate(lex(`x(${text})`)[0].args);

  it('expands known variables, innermost first, and leaves unknown ones as written', () => {
    const vars = new CMakeVariables();
    vars.set('LIB', 'fmt');
    vars.set('WHICH', 'LIB');
    expect(evaluate(vars, '${LIB} ${${WHICH}} ${UNKNOWN} lib${LIB}.so $ENV{HOME}')).toEqual(['fmt', 'fmt', '${UNKNOWN}', 'libfmt.so', '$ENV{HOME}']);
  });

  it('splits unquoted arguments on semicolons, not quoted or bracket ones', () => {
    const vars = new CMakeVariables();
    vars.set('LIBS', 'a;b;;c');
    expect(evaluate(vars, '${LIBS} "${LIBS}" [[x;y]] d\\;e')).toEqual(['a', 'b', 'c', 'a;b;;c', 'x;y', 'd;e']);
  });

  it('decodes escapes and line continuations in quoted arguments, and honours an escaped dollar', () => {
    const vars = new CMakeVariables();
    vars.set('X', 'y');
    expect(evaluate(vars, '"a\\tb\\\nc" "\\${X}" "${X}"')).toEqual(['a\tbc', '${X}', 'y']);
  });

  it('drops an unquoted argument that expands to nothing, keeps an empty quoted one', () => {
    const vars = new CMakeVariables();
    vars.set('EMPTY', '');
    expect(evaluate(vars, '${EMPTY} ""')).toEqual(['']);
  });

  it('does not grow without bound', () => {
    const vars = new CMakeVariables();
    vars.set('A', '${A}${A}');
    expect(evaluate(vars, '${A}')[0].length).toBeLessThan(100_000);
  });

  it('gives a child scope the parent variables without passing its own back', () => {
    const parent = new CMakeVariables();
    parent.set('A', '1');
    const child = parent.child();
    child.set('B', '2');
    expect([child.get('A'), parent.get('B')]).toEqual(['1', undefined]);
  });
});
