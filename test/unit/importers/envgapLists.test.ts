import { dependencyList } from '../../../src/importers/envgapLists';

describe('EnvGap list cells', () => {
  it('splits on commas, drops empty markers and duplicates', () => {
    expect(dependencyList('pandas==2.2.2,numpy==1.26.4,none,,pandas', 'python', 'declared', 'as-published')).toEqual(['pandas', 'numpy']);
    expect(dependencyList('None', 'python', 'declared', 'as-published')).toEqual([]);
    expect(dependencyList('', 'python', 'declared', 'as-published')).toEqual([]);
  });

  it('as published, a space-separated cell is one name (the paper\'s reading)', () => {
    expect(dependencyList('fast-xml-parser js-yaml strnum', 'javascript', 'traced', 'as-published')).toEqual([
      'fast-xml-parser js-yaml strnum',
    ]);
  });

  it('whitespace-aware, a comma-free cell of package-like words is a list', () => {
    expect(dependencyList('fast-xml-parser js-yaml @fast-csv/parse', 'javascript', 'traced', 'whitespace-aware')).toEqual([
      'fast-xml-parser', 'js-yaml', '@fast-csv/parse',
    ]);
    expect(dependencyList('a,b c', 'javascript', 'traced', 'whitespace-aware')).toEqual(['a', 'b c']);
  });

  it('whitespace-aware, free text stays as written', () => {
    expect(dependencyList('N/A - long-running server timeout', 'javascript', 'traced', 'whitespace-aware')).toEqual([
      'n/a - long-running server timeout',
    ]);
    expect(dependencyList('flexmark-all + 60 transitive deps', 'java', 'installed', 'whitespace-aware')).toHaveLength(1);
  });
});
