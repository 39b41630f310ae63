import { parseAptTxt } from '../../src/ecosystems/apt';
import { manifestError } from '../helpers/manifestError';

const parse = (text: string) => parseAptTxt(text, { fileName: 'apt.txt' });

describe('parseAptTxt', () => {
  it('reads one package per line, skipping comments and blank lines, with CRLF', () => {
    const text = '# system libraries\r\nlibssl-dev\r\n\r\nlibcurl4-openssl-dev  # for HTTP\r\n   libsqlite3-dev   \r\n#libboost-all-dev\r\n';
    expect(parse(text)).toEqual(['libssl-dev', 'libcurl4-openssl-dev', 'libsqlite3-dev']);
  });

  it('accepts names with +, . and digits', () => {
    expect(parse('g++\nlibstdc++-12-dev\npython3.11\nlibgtk-3-dev\nzlib1g-dev\nr-base\n')).toEqual(['g++', 'libstdc++-12-dev', 'python3.11', 'libgtk-3-dev', 'zlib1g-dev', 'r-base']);
  });

  it('keeps the name of name=version and name:arch', () => {
    expect(parse('libssl-dev=3.0.2-0ubuntu1.15\nlibc6:i386\ncurl:amd64=7.81.0-1\nnginx=1:1.22.1-9\n')).toEqual(['libssl-dev', 'libc6', 'curl', 'nginx']);
  });

  it('reads several packages on a line, as repo2docker hands the line to apt-get', () => {
    expect(parse('libpq-dev libxml2-dev\n')).toEqual(['libpq-dev', 'libxml2-dev']);
  });

  it('drops repeats, the first place kept', () => {
    expect(parse('git\ncurl\ngit\n')).toEqual(['git', 'curl']);
  });

  it('accepts an empty file, a BOM, and no final newline', () => {
    expect(parse('')).toEqual([]);
    expect(parse('\n# only comments\n')).toEqual([]);
    expect(parse('\uFEFFcurl')).toEqual(['curl']);
  });

  it.each([
    ['curl\nLibSSL-dev\n', 2, 'LibSSL-dev'],
    ['curl\nx\n', 2, 'x'],
    ['-y\n', 1, '-y'],
    ['\n\ncurl; rm -rf /\n', 3, 'curl;'],
    ['$(whoami)\n', 1, '$(whoami)'],
    ['libssl-dev=\n', 1, 'libssl-dev='],
    ['libc6:\n', 1, 'libc6:'],
    ['pkg/bookworm-backports\n', 1, 'pkg/bookworm-backports'],
    ['libssl-dev=1.0;ls\n', 1, 'libssl-dev=1.0;ls'],
    ['café\n', 1, 'café'],
  ])('rejects %j at its line', (text, line, word) => {
    const err = manifestError(() => parse(text));
    expect(err.message).toBe(`apt.txt:${line}: "${word}" is not a Debian package name`);
  });
});
