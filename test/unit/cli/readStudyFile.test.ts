import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadCatalog } from '../../../src/catalog/catalog';
import { loadStudyFile, parseStudyYaml, readStudyFile, StudyFileError, studyProtocol } from '../../../src/cli/studyFile';
import { parseReadmeStudyFile } from '../../../src/cli/readmeStudyFile';
import { listReadmeInstances } from '../../../src/readme/dataset';
import { parseReadinessStudyFile } from '../../../src/cli/readinessStudyFile';

// Issue 8: a missing, odd or huge study file gets a message that says what was looked for and where.
let dir: string;
let cwd: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-studyfile-'));
  cwd = process.cwd();
});
afterAll(() => {
  process.chdir(cwd);
  fs.rmSync(dir, { recursive: true, force: true });
});
afterEach(() => jest.restoreAllMocks());

// The module object itself (an `import * as` namespace cannot be spied on).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const nodeFs: typeof fs = require('node:fs');

const catalog = loadCatalog();
const valid = 'name: s1\nagents:\n  - { kind: replay, name: rec, path: corpus }\nlanguages: [python]\ntasks: [p_01]\n';

test('a missing file names the file and the absolute path looked in', () => {
  process.chdir(dir);
  try {
    expect(() => readStudyFile('nope.yaml')).toThrow(`study file not found: nope.yaml (looked in ${path.join(fs.realpathSync(dir), 'nope.yaml')})`);
  } finally {
    process.chdir(cwd);
  }
  expect(() => readStudyFile(path.join(dir, 'missing', 'nope.yaml'))).toThrow(/^study file not found: .*missing\/nope\.yaml$/);
  expect(() => readStudyFile(path.join(dir, 'missing', 'nope.yaml'))).not.toThrow(/ENOENT/);
});

test('a directory, a device and an unreadable file are named as such', () => {
  expect(() => readStudyFile(dir)).toThrow(`study file is a directory, not a file: ${dir}`);
  expect(() => readStudyFile('/dev/zero')).toThrow('study file is not a regular file: /dev/zero');
  const file = path.join(dir, 'locked.yaml');
  fs.writeFileSync(file, valid);
  // root reads any file whatever its mode, so the refusal is simulated
  jest.spyOn(nodeFs, 'openSync').mockImplementation(() => {
    throw Object.assign(new Error(`EACCES: permission denied, open '${file}'`), { code: 'EACCES' });
  });
  expect(() => readStudyFile(file)).toThrow(`study file not readable (permission denied): ${file}`);
});

test('a file over 1 MiB is refused from its size, before it is read or parsed', () => {
  const file = path.join(dir, 'huge.yaml');
  fs.writeFileSync(file, valid + `# ${'x'.repeat(2 * 1024 * 1024)}\n`);
  const read = jest.spyOn(nodeFs, 'readSync');
  const readWhole = jest.spyOn(nodeFs, 'readFileSync');
  let err: unknown;
  try {
    loadStudyFile(file, catalog);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(StudyFileError);
  expect((err as StudyFileError).problems).toEqual([expect.stringMatching(/huge\.yaml: the file is 2,097,2\d\d bytes; a study file is at most 1,048,576 bytes \(1 MiB\)/)]);
  expect(read).not.toHaveBeenCalled();
  expect(readWhole).not.toHaveBeenCalled();
});

test('a file of exactly 1 MiB is read', () => {
  const file = path.join(dir, 'full.yaml');
  fs.writeFileSync(file, valid + '#'.repeat(1024 * 1024 - valid.length));
  expect(readStudyFile(file)).toHaveLength(1024 * 1024);
  expect(loadStudyFile(file, catalog).agents[0]).toEqual({ kind: 'replay', name: 'rec', path: path.join(dir, 'corpus') });
});

test('a valid file reads through', () => {
  const file = path.join(dir, 'ok.yaml');
  fs.writeFileSync(file, valid);
  expect(loadStudyFile(file, catalog).name).toBe('s1');
});

test('the study files of the repository load, each by its protocol', () => {
  const studies = path.resolve(__dirname, '../../../studies');
  for (const f of fs.readdirSync(studies).filter((n) => n.endsWith('.yaml'))) {
    const file = path.join(studies, f);
    const text = readStudyFile(file);
    const protocol = studyProtocol(parseStudyYaml(text, file));
    const study = protocol === 'readiness' ? parseReadinessStudyFile(text, file) : protocol === 'readme' ? parseReadmeStudyFile(text, file, listReadmeInstances) : loadStudyFile(file, catalog);
    expect(study.agents.length).toBeGreaterThan(0);
  }
});

test('a readiness study given to the environment gap protocol is refused, naming the protocol', () => {
  const file = path.resolve(__dirname, '../../../studies/readiness.yaml');
  expect(() => loadStudyFile(file, catalog)).toThrow(/readiness\.yaml:\d+:\d+: protocol: this is a study of the readiness protocol, not of the environment gap protocol/);
});
