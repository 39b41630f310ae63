import { dependencyName } from '../../../src/importers/envgapNames';

describe('EnvGap dependency names', () => {
  it('reads none, N/A, - and blanks as no name', () => {
    for (const empty of ['', '  ', 'none', 'None', 'N/A', 'n/a', '-']) expect(dependencyName(empty, 'python', 'declared')).toBeNull();
  });

  it('Python: version specifiers dropped, PEP 503 normalised', () => {
    expect(dependencyName('pandas==2.2.2', 'python', 'declared')).toBe('pandas');
    expect(dependencyName('PyYAML>=6.0', 'python', 'installed')).toBe('pyyaml');
    expect(dependencyName('python_dateutil~=2.9', 'python', 'traced')).toBe('python-dateutil');
    expect(dependencyName('ruamel.yaml==0.18', 'python', 'declared')).toBe('ruamel-yaml');
    expect(dependencyName('requests[socks]', 'python', 'declared')).toBe('requests');
  });

  it('Java: artifactId from coordinates and jar file names', () => {
    expect(dependencyName('jackson-databind:2.16.1', 'java', 'declared')).toBe('jackson-databind');
    expect(dependencyName('commons-csv-1.10.0.jar', 'java', 'traced')).toBe('commons-csv');
    expect(dependencyName('error_prone_annotations-2.23.0.jar', 'java', 'traced')).toBe('error-prone-annotations');
    expect(dependencyName('gson', 'java', 'declared')).toBe('gson');
  });

  it('JavaScript: lower case, `_` as `-`, scopes kept', () => {
    expect(dependencyName('@colors/colors', 'javascript', 'installed')).toBe('@colors/colors');
    expect(dependencyName('fast_csv', 'javascript', 'declared')).toBe('fast-csv');
  });

  it('C++: runtime shared objects lose `lib` and `.so*`; declared CMake names are kept as written', () => {
    expect(dependencyName('libcrypto', 'cpp', 'traced')).toBe('crypto');
    expect(dependencyName('libz.so.1', 'cpp', 'traced')).toBe('z');
    expect(dependencyName('libboost_iostreams.so.1.74.0', 'cpp', 'traced')).toBe('boost-iostreams');
    expect(dependencyName('nlohmann_json', 'cpp', 'declared')).toBe('nlohmann-json');
    expect(dependencyName('libsodium', 'cpp', 'declared')).toBe('libsodium');
  });
});
