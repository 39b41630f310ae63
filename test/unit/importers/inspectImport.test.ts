import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { loadCatalog } from '../../../src/catalog/catalog';
import { recordingsDir } from '../../../src/cli/harborImportCommand';
import { importInspectCommand } from '../../../src/cli/inspectImportCommand';
import { parseStudyFile } from '../../../src/cli/studyFile';
import { openInspectLog } from '../../../src/importers/inspectLogFile';
import { inspectSampleFiles, projectFiles } from '../../../src/importers/inspectSample';
import { buildZip, csvTableEvalLog, writeEvalLog } from '../../helpers/inspectEval';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'inspect-import-'));
const log = csvTableEvalLog();
const TASK = 'csv_table-1';

describe('inspectSampleFiles: the files a sample’s events wrote', () => {
  const s = inspectSampleFiles(log.samples[0], 'log.eval sample 1');

  it('replays text_editor creates and edits (attachments resolved) and complete sandbox writes', () => {
    expect(s.files.map((f) => f.path)).toEqual(['/root/work/data.csv', '/root/work/main.py', '/root/work/requirements.txt']);
    expect(s.files.find((f) => f.path.endsWith('main.py'))!.content).toContain('print(tabulate(rows[1:], headers=rows[0], tablefmt="simple"))');
    expect(s).toMatchObject({ id: '1', epoch: 1, source: 'events', tokens: { input: 5210, output: 830, costUsd: 0.0042 } });
    expect(s.prompt).toMatch(/^Write a Python program \/root\/work\/main.py/);
    expect(s.record).toMatchObject({ scores: { includes: 'C' }, error: null });
  });

  it('says what it could not convert: a truncated write, an edit of an unknown file, the shell commands', () => {
    expect(s.problems).toEqual([
      '1 bash call not replayed: files they wrote or changed (a heredoc, pip freeze > requirements.txt, sed -i) are not in the project',
      "/root/work/missing.py: a str_replace on a file whose content the log does not hold (the task's own, or written by a command)",
      '/root/work/NOTES.md: a sandbox write_file of which the log keeps only its first 20 lines',
    ]);
  });

  it('takes a map of files from the store (a StoreModel field) over the events', () => {
    const fromStore = inspectSampleFiles({ id: 'a', epoch: 2, input: 'x', store: { 'Workspace:files': { 'app/main.py': 'print(1)\n' } }, events: log.samples[0]!.events, attachments: log.samples[0]!.attachments }, 'w');
    expect(fromStore).toMatchObject({ source: 'store', files: [{ path: 'app/main.py', content: 'print(1)\n' }], problems: [] });
  });

  it('refuses a sample without an id', () => {
    expect(() => inspectSampleFiles({ epoch: 1 }, 'log.eval samples/x.json')).toThrow('log.eval samples/x.json: the sample has no id');
  });
});

describe('projectFiles: the project root', () => {
  const files = [{ path: '/root/work/requirements.txt', content: '' }, { path: '/root/work/src/a.py', content: '' }, { path: '/tmp/scratch.py', content: '' }, { path: '/root/work/.venv/x.py', content: '' }, { path: 'b.py', content: '' }];

  it("is the shallowest manifest's folder; files outside it, and in virtual environments, are said", () => {
    const p = projectFiles(files, null);
    expect(p.root).toBe('/root/work');
    expect(p.files.map((f) => f.rel)).toEqual(['requirements.txt', 'src/a.py', 'b.py']);
    expect(p.problems).toEqual(["/tmp/scratch.py: outside the project's root /root/work", "/root/work/.venv/x.py: in a folder that is not the project's (a virtual environment, node_modules, a cache)"]);
  });

  it('is the working directory where given, else the deepest folder holding every file', () => {
    expect(projectFiles(files, '/root').files.map((f) => f.rel)).toContain('work/src/a.py');
    expect(projectFiles([{ path: '/w/p/a.py', content: '' }, { path: '/w/p/q/b.py', content: '' }], null).root).toBe('/w/p');
  });
});

describe('envgap import inspect', () => {
  const dir = tmp();
  const out = path.join(dir, 'inspect.yaml');
  const file = writeEvalLog(path.join(dir, 'csv.eval'), log);
  const imported = importInspectCommand([file], { out });

  it('writes a gap study: the model a replay agent, each sample with files an imported task whose prompt is its input', () => {
    const study = parseStudyFile(fs.readFileSync(out, 'utf8'), out, loadCatalog());
    expect(study).toMatchObject({ name: 'csv_table-gap', languages: ['python'], trials: 1, budget: 0 });
    expect(study.agents).toEqual([{ kind: 'replay', name: 'openai-gpt-5-mini', path: path.join(recordingsDir(out), 'projects', 'openai-gpt-5-mini') }]);
    expect(study.tasksByLanguage!.python).toEqual([{ id: TASK, title: 'Inspect task envgap_fixtures/csv_table, sample 1', domain: 'inspect', prompt: expect.stringMatching(/^Write a Python program/) }]);
  });

  it("writes the project as the replay's iteration 0, the sample's scores beside it", () => {
    const trial = path.join(recordingsDir(out), 'projects', 'openai-gpt-5-mini', 'python', TASK, '1');
    expect(fs.readdirSync(path.join(trial, '0')).sort()).toEqual(['.replay.json', 'data.csv', 'main.py', 'requirements.txt']);
    expect(JSON.parse(fs.readFileSync(path.join(trial, 'inspect-sample.json'), 'utf8'))).toMatchObject({ log: 'csv.eval', task: 'envgap_fixtures/csv_table', root: '/root/work', scores: { includes: 'C' } });
  });

  it('says per sample what could not be converted (also at the top of the file)', () => {
    expect(imported.unconverted).toContain('csv.eval sample 2 epoch 1: no file the agent wrote is in the log, so no project');
    expect(imported.unconverted).toContain('csv.eval sample 1 epoch 1: /root/work/NOTES.md: a sandbox write_file of which the log keeps only its first 20 lines');
    expect(fs.readFileSync(out, 'utf8')).toContain('#   - csv.eval sample 2 epoch 1: no file the agent wrote is in the log, so no project');
  });

  it('reads the same log as JSON (`inspect log convert --to json`) and a log still running (no header.json)', () => {
    const json = path.join(dir, 'csv.json');
    fs.writeFileSync(json, JSON.stringify({ version: 2, status: 'success', eval: { task: log.task, model: log.model, created: '2026-12-02T10:00:00+00:00' }, samples: log.samples }));
    expect(importInspectCommand([json], { out: path.join(tmp(), 's.yaml') }).recordings).toHaveLength(1);
    const running = writeEvalLog(path.join(dir, 'running.eval'), { ...log, running: true });
    expect(openInspectLog(running).sampleNames).toEqual(['samples/1_epoch_1.json', 'samples/2_epoch_1.json']);
  });

  it('refuses a log with no sample that left a project, and a file that is no log', () => {
    const none = writeEvalLog(path.join(dir, 'none.eval'), { ...log, samples: [log.samples[1]!] });
    expect(() => importInspectCommand([none], { out: path.join(tmp(), 's.yaml') })).toThrow('import inspect: no sample left a project the log holds');
    const junk = path.join(dir, 'junk.json');
    fs.writeFileSync(junk, '{"samples": []}');
    expect(() => importInspectCommand([junk], { out: path.join(tmp(), 's.yaml') })).toThrow(`${junk}: not an Inspect log (no "eval" field`);
  });

  const zstd = (() => {
    try {
      execFileSync('zstd', ['--version']);
      return true;
    } catch {
      return false;
    }
  })();
  // Inspect 0.3.206 and later compress with Zstandard (ZIP method 93); Node 20 has no Zstandard, so the `zstd` program decompresses.
  // The test compresses its sample with the `zstd` program, so it needs that program whatever Node has.
  (zstd ? it : it.skip)(`reads Zstandard-compressed samples${zstd ? '' : ' (skipped: needs the zstd program, Debian package zstd)'}`, () => {
    const sample = Buffer.from(JSON.stringify(log.samples[0]));
    const compressed = execFileSync('zstd', ['-c', '-q'], { input: sample });
    const zip = buildZip([{ name: 'header.json', data: JSON.stringify({ version: 2, eval: { task: log.task, model: log.model } }) }, { name: 'samples/1_epoch_1.json', data: compressed, method: 'store' }]);
    // Mark the second entry Zstandard, with its real size and CRC (the helper wrote the compressed bytes' own).
    const local = zip.indexOf(Buffer.from('samples/1_epoch_1.json')) - 30;
    const central = zip.lastIndexOf(Buffer.from('samples/1_epoch_1.json')) - 46;
    for (const at of [local + 8, central + 10]) zip.writeUInt16LE(93, at);
    for (const at of [local + 14, central + 16]) zip.writeUInt32LE(zlib.crc32(sample), at);
    for (const at of [local + 22, central + 24]) zip.writeUInt32LE(sample.length, at);
    const file = path.join(dir, 'zstd.eval');
    fs.writeFileSync(file, zip);
    const opened = openInspectLog(file);
    expect((opened.sample('samples/1_epoch_1.json') as { id: number }).id).toBe(1);
    opened.close();
  });
});
