import { encodeBinary } from '../../src/domain/files';
import { declaredDependencies } from '../../src/ecosystems/declared';

describe('declaredDependencies', () => {
  it('python: requirements.txt names, normalised, -r files followed from the project', () => {
    const files = { 'requirements.txt': 'Flask==3.0\n-r reqs/extra.txt\n', 'reqs/extra.txt': 'PyYAML\nflask\n' };
    expect(declaredDependencies('python', files)).toEqual({ names: ['flask', 'pyyaml'], fromManifest: ['flask', 'pyyaml'], fromApt: [], manifestFound: true, problem: null, manifestStatus: 'present', testScoped: [] });
  });

  it('a binary manifest or apt.txt is invalid, saying it is binary; a binary included file is not there', () => {
    const binary = encodeBinary(Buffer.from([0xff, 0xfe, 0, 0x46, 0x6c]));
    expect(declaredDependencies('python', { 'requirements.txt': binary })).toEqual({
      names: [], fromManifest: [], fromApt: [], manifestFound: true, manifestStatus: 'invalid', testScoped: [],
      problem: 'requirements.txt: a binary file (not UTF-8 text, or holding NUL bytes), not a manifest',
    });
    expect(declaredDependencies('java', { 'pom.xml': '<project/>', 'apt.txt': binary })).toMatchObject({
      manifestStatus: 'invalid',
      problem: 'apt.txt: a binary file (not UTF-8 text, or holding NUL bytes), not a list of packages',
    });
    const included = declaredDependencies('python', { 'requirements.txt': 'flask\n-r extra.txt\n', 'extra.txt': binary });
    const absent = declaredDependencies('python', { 'requirements.txt': 'flask\n-r extra.txt\n' });
    expect(included).toEqual(absent);
  });

  it('java: artifactIds of pom.xml <dependencies>', () => {
    const pom = '<project><dependencies><dependency><groupId>com.google.code.gson</groupId><artifactId>gson</artifactId></dependency>' +
      '<dependency><groupId>junit</groupId><artifactId>junit</artifactId><scope>test</scope></dependency></dependencies></project>';
    expect(declaredDependencies('java', { 'pom.xml': pom }).names).toEqual(['gson', 'junit']);
    // D1 keeps the paper's reading; the test-scoped artifacts are listed apart (declared_test).
    expect(declaredDependencies('java', { 'pom.xml': pom }).testScoped).toEqual(['junit']);
  });

  it('javascript: keys of package.json dependencies, not devDependencies', () => {
    const pkg = JSON.stringify({ dependencies: { express: '^4', Chalk: '^5' }, devDependencies: { jest: '^29' } });
    expect(declaredDependencies('javascript', { 'package.json': pkg }).names).toEqual(['Chalk', 'express']);
  });

  it('cpp: every package CMakeLists.txt names, includes followed, normalised', () => {
    const files = {
      'CMakeLists.txt': 'find_package(OpenSSL REQUIRED)\ninclude(./cmake/deps.cmake)\nFetchContent_Declare(fmt GIT_REPOSITORY x)\nfind_package(Threads)\n',
      'cmake/deps.cmake': 'pkg_check_modules(C REQUIRED libcurl)\n',
    };
    expect(declaredDependencies('cpp', files).names).toEqual(['curl', 'fmt', 'openssl', 'threads']);
  });

  it('adds the Debian packages of a top-level apt.txt, for any language', () => {
    const files = { 'CMakeLists.txt': 'find_package(CURL)\n', 'apt.txt': 'libcurl4-openssl-dev\n# comment\nzlib1g-dev\n' };
    expect(declaredDependencies('cpp', files)).toMatchObject({
      names: ['curl', 'libcurl4-openssl-dev', 'zlib1g-dev'],
      fromManifest: ['curl'],
      fromApt: ['libcurl4-openssl-dev', 'zlib1g-dev'],
    });
    expect(declaredDependencies('python', { 'requirements.txt': 'opencv-python\n', 'apt.txt': 'libgl1\n' }).names).toEqual(['libgl1', 'opencv-python']);
  });

  it('counts an apt.txt alone as a manifest', () => {
    expect(declaredDependencies('javascript', { 'apt.txt': 'ffmpeg\n', 'index.js': '' })).toEqual({ names: ['ffmpeg'], fromManifest: [], fromApt: ['ffmpeg'], manifestFound: true, problem: null, manifestStatus: 'absent', testScoped: [] });
  });

  it('ignores manifests that are not at the top, and the other languages\' manifests', () => {
    expect(declaredDependencies('java', { 'sub/pom.xml': '<project/>', 'package.json': '{}', 'sub/apt.txt': 'curl' })).toEqual({
      names: [], fromManifest: [], fromApt: [], manifestFound: false, problem: null, manifestStatus: 'absent', testScoped: [],
    });
  });

  it('reports no manifest for an empty project', () => {
    expect(declaredDependencies('python', {})).toEqual({ names: [], fromManifest: [], fromApt: [], manifestFound: false, problem: null, manifestStatus: 'absent', testScoped: [] });
  });

  it('turns a ManifestError into a problem and no names', () => {
    expect(declaredDependencies('javascript', { 'package.json': '{\n  "dependencies": [\n' })).toEqual({
      names: [], fromManifest: [], fromApt: [], manifestFound: true, problem: expect.stringMatching(/^package\.json:2: invalid JSON: /), manifestStatus: 'invalid', testScoped: [],
    });
    expect(declaredDependencies('java', { 'pom.xml': '<!DOCTYPE x>\n<project/>' }).problem).toBe(
      'pom.xml:1: <!DOCTYPE: document type and entity declarations are not accepted',
    );
    expect(declaredDependencies('cpp', { 'CMakeLists.txt': 'find_package(fmt)\n', 'apt.txt': 'fine\nNot Fine\n' })).toEqual({
      names: [], fromManifest: [], fromApt: [], manifestFound: true, problem: 'apt.txt:2: "Not" is not a Debian package name', manifestStatus: 'invalid', testScoped: [],
    });
    expect(declaredDependencies('python', { 'requirements.txt': 'flask\nnumpy=1.2\n' }).problem).toMatch(/^requirements\.txt:2: /);
  });

  it('never reads a file from the prototype of the files map', () => {
    expect(declaredDependencies('python', { 'requirements.txt': '-r constructor\n' }).problem).toMatch(/not found/);
  });
});

describe('the manifest as found (manifest_status)', () => {
  it('tells an absent manifest, an empty one, an unparseable one and one that declares apart', () => {
    expect(declaredDependencies('python', { 'main.py': 'print(1)\n' })).toMatchObject({ names: [], manifestStatus: 'absent', problem: null });
    expect(declaredDependencies('python', { 'main.py': '', 'requirements.txt': '# nothing needed\n' })).toMatchObject({ names: [], manifestStatus: 'empty', problem: null });
    const invalid = declaredDependencies('java', { 'pom.xml': '<project><dependencies><dependency>' });
    expect(invalid).toMatchObject({ names: [], manifestStatus: 'invalid' });
    expect(invalid.problem).toMatch(/pom\.xml/);
    expect(declaredDependencies('javascript', { 'package.json': '{"dependencies": {"yaml": "^2"}}' })).toMatchObject({ names: ['yaml'], manifestStatus: 'present' });
  });

  it('an apt.txt alone leaves the language manifest absent', () => {
    expect(declaredDependencies('cpp', { 'apt.txt': 'libssl-dev\n', 'main.cpp': '' })).toMatchObject({ names: ['libssl-dev'], manifestStatus: 'absent', testScoped: [] });
  });
});
