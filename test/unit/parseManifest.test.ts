import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { confinedReader, parseManifestFile } from '../../src/cli/parseManifest';

const project = (files: Record<string, string>): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-manifest-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
};

describe('parseManifestFile', () => {
  let stderr: jest.SpyInstance;
  beforeEach(() => {
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => stderr.mockRestore());

  it('java: artifactIds with their coordinates and scope', () => {
    const dir = project({ 'pom.xml': '<project><dependencies><dependency><groupId>org.junit</groupId><artifactId>junit</artifactId><version>${v}</version><scope>test</scope></dependency></dependencies></project>' });
    expect(parseManifestFile(path.join(dir, 'pom.xml'), 'java')).toEqual({
      ecosystem: 'java',
      dependencies: [{ name: 'junit', groupId: 'org.junit', version: '${v}', scope: 'test', optional: false }],
    });
    expect(stderr).toHaveBeenCalledWith(expect.stringMatching(/^envgap: warning: pom\.xml:1: \$\{v\} cannot be resolved/));
  });

  it('javascript: dependencies only, with their specs', () => {
    const dir = project({ 'package.json': JSON.stringify({ dependencies: { express: '^4' }, devDependencies: { jest: '^29' } }) });
    expect(parseManifestFile(path.join(dir, 'package.json'), 'javascript')).toEqual({ ecosystem: 'javascript', dependencies: [{ name: 'express', spec: '^4' }] });
  });

  it('cpp: includes read from disk relative to the file; an apt.txt beside it is not read', () => {
    const dir = project({
      'CMakeLists.txt': 'include(${CMAKE_CURRENT_SOURCE_DIR}/cmake/deps.cmake)\nadd_subdirectory(src)\nadd_subdirectory(cmake)\n',
      'cmake/deps.cmake': 'find_package(Boost REQUIRED COMPONENTS system)\n',
      'src/CMakeLists.txt': 'pkg_check_modules(Z zlib)\n',
      'apt.txt': 'libboost-all-dev\n',
    });
    expect(parseManifestFile(path.join(dir, 'CMakeLists.txt'), 'cpp')).toEqual({
      ecosystem: 'cpp',
      dependencies: [
        { name: 'boost', rawName: 'Boost', kind: 'find_package', components: ['system'], required: true },
        { name: 'zlib', rawName: 'zlib', kind: 'pkg_check_modules', components: [], required: false },
      ],
    });
    expect(stderr).toHaveBeenCalledWith(expect.stringMatching(/add_subdirectory\(cmake\): cmake\/CMakeLists\.txt not found/));
  });

  it('python: unchanged', () => {
    const dir = project({ 'requirements.txt': '-r base.txt\nrequests==2.32\n', 'base.txt': 'Flask\n' });
    expect(parseManifestFile(path.join(dir, 'requirements.txt'), 'python')).toEqual({
      ecosystem: 'python',
      dependencies: [{ name: 'flask', specifier: null }, { name: 'requests', specifier: '==2.32' }],
    });
  });

  it('throws the ManifestError of a bad manifest', () => {
    const dir = project({ 'package.json': '{\n  "dependencies": 3\n}' });
    expect(() => parseManifestFile(path.join(dir, 'package.json'), 'javascript')).toThrow(/^package\.json:2: "dependencies" must be an object/);
  });
});

describe('parseManifestFile: includes stay in the manifest\'s folder (issue 8)', () => {
  const SECRET = 'SECRET-CONTENT-OUTSIDE';
  let stderr: jest.SpyInstance;
  let written: string;
  beforeEach(() => {
    written = '';
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written += String(chunk);
      return true;
    });
  });
  afterEach(() => stderr.mockRestore());

  /** A folder holding a secret file, and the project one level below it. */
  const nested = (files: Record<string, string>) => {
    const outer = project({ 'secret.txt': `${SECRET}\n` });
    const dir = path.join(outer, 'proj');
    fs.mkdirSync(dir);
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    return { outer, dir };
  };

  it.each(['-r /etc/passwd', '-c /etc/shadow', '-r /proc/self/environ', '-r ../../../../etc/passwd', '-r ../secret.txt'])(
    'python: %s is not read; the warning names the line only',
    (line) => {
      const { dir } = nested({ 'requirements.txt': `flask\n${line}\n` });
      expect(parseManifestFile(path.join(dir, 'requirements.txt'), 'python').dependencies).toEqual([{ name: 'flask', specifier: null }]);
      expect(written).toMatch(/^envgap: warning: requirements\.txt:2: -[rc] \S+: /);
      expect(written).not.toMatch(/SECRET|root:|PATH=/);
    },
  );

  it('python: a symbolic link out of the folder is not followed', () => {
    const { outer, dir } = nested({ 'requirements.txt': 'flask\n-r base.txt\n' });
    fs.symlinkSync(path.join(outer, 'secret.txt'), path.join(dir, 'base.txt'));
    let message = '';
    try {
      parseManifestFile(path.join(dir, 'requirements.txt'), 'python');
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^requirements\.txt:2: -r base\.txt: file base\.txt not found/);
    expect(written).toMatch(/base\.txt: a symbolic link out of the manifest's folder; not read/);
    expect(message + written).not.toContain(SECRET);
  });

  it('python: a symbolic link inside the folder is followed', () => {
    const { dir } = nested({ 'requirements.txt': '-r base.txt\n', 'real.txt': 'six\n' });
    fs.symlinkSync('real.txt', path.join(dir, 'base.txt'));
    expect(parseManifestFile(path.join(dir, 'requirements.txt'), 'python').dependencies).toEqual([{ name: 'six', specifier: null }]);
  });

  it('cpp: include() of an absolute path or through a link stays in the folder', () => {
    const { outer, dir } = nested({ 'CMakeLists.txt': `include(${'/'}etc/passwd)\ninclude(../secret.txt)\ninclude(link.cmake)\nfind_package(ZLIB)\n` });
    fs.symlinkSync(path.join(outer, 'secret.txt'), path.join(dir, 'link.cmake'));
    expect(parseManifestFile(path.join(dir, 'CMakeLists.txt'), 'cpp').dependencies.map((d) => d.name)).toEqual(['zlib']);
    expect(written).toMatch(/link\.cmake: a symbolic link out of the manifest's folder; not read/);
    expect(written).not.toMatch(/SECRET|root:/);
  });

  it('a 20 MB line does not reach stderr or the error whole', () => {
    const dir = project({ 'requirements.txt': `flask\n--opt\\\n${'x'.repeat(20_000_000)}\nrequests==\\\n1${'y'.repeat(20_000_000)}\n` });
    let message = '';
    try {
      parseManifestFile(path.join(dir, 'requirements.txt'), 'python');
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/more characters/);
    expect(message.length).toBeLessThan(3_000);
    expect(written.length).toBeLessThan(3_000);
  });
});

describe('confinedReader', () => {
  it('refuses absolute and parent paths without touching the disk, and reads regular files only', () => {
    const dir = project({ 'a.txt': 'A', 'sub/b.txt': 'B' });
    const refused: string[] = [];
    const read = confinedReader(dir, (m) => refused.push(m));
    expect(read('a.txt')).toBe('A');
    expect(read('sub/b.txt')).toBe('B');
    expect(read('sub')).toBeUndefined();
    expect(read('missing.txt')).toBeUndefined();
    expect(read('/etc/passwd')).toBeUndefined();
    expect(read('../a.txt')).toBeUndefined();
    expect(read('sub/../../a.txt')).toBeUndefined();
    expect(refused).toEqual([
      "/etc/passwd: outside the manifest's folder; not read",
      "../a.txt: outside the manifest's folder; not read",
      "sub/../../a.txt: outside the manifest's folder; not read",
    ]);
  });
});
