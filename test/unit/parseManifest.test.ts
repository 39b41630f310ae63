import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseManifestFile } from '../../src/cli/parseManifest';

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
