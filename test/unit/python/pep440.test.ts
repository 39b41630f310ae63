import { isValidVersion, normalizeSpecifierClause, normalizeSpecifierSet } from '../../../src/ecosystems/python/pep440';

describe('PEP 440 specifiers', () => {
  it.each(['1', '1.0', '2023.3.post1', '1.0a1', '1.0.0-rc.1', '1!2.0', 'v1.2', '2.1.0+cpu', '1.0.dev0', '0.4.20.dev20231101', '1.0-1', '1.0.post2.dev3'])(
    '%s is a valid version',
    (v) => expect(isValidVersion(v)).toBe(true),
  );

  it.each(['latest', '2.x', '1.0.', '', 'abc1.0', '1.0+', '1..0'])('%j is not a valid version', (v) => {
    expect(isValidVersion(v)).toBe(false);
  });

  it.each([
    ['== 1.0', '==1.0'],
    ['==1.*', '==1.*'],
    ['!=1.2.*', '!=1.2.*'],
    ['~=2.2', '~=2.2'],
    ['~=1.4.5a4', '~=1.4.5a4'],
    ['>=1.0rc1', '>=1.0rc1'],
    ['===anything-goes+local', '===anything-goes+local'],
  ])('%j is the clause %s', (clause, normalized) => {
    expect(normalizeSpecifierClause(clause)).toBe(normalized);
  });

  it.each(['>=1.*', '~=1', '<2.0+local', '=1.0', '=>1.0', '>= ', '~=1.*', '1.0'])('%j is no valid clause', (clause) => {
    expect(normalizeSpecifierClause(clause)).toBeNull();
  });

  it('normalises sets and rejects any bad clause', () => {
    expect(normalizeSpecifierSet(' >= 1.0 ,<2 , != 1.5 ')).toBe('>=1.0,<2,!=1.5');
    expect(() => normalizeSpecifierSet('>=1.0,')).toThrow(/invalid version specifier ""/);
    expect(() => normalizeSpecifierSet('>=1.0,=2')).toThrow(/"=2"/);
  });
});
