import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadCatalog } from '../../../src/catalog/catalog';
import { importHarborGapCommand } from '../../../src/cli/harborGapImportCommand';
import { recordingsDir } from '../../../src/cli/harborImportCommand';
import { parseStudyFile } from '../../../src/cli/studyFile';
import { projectLanguage } from '../../../src/importers/gapReplayStudy';
import { harborInstruction } from '../../../src/importers/harborGapProjects';

const FIXTURE = path.resolve(__dirname, '../../fixtures/harbor');
const PROJECTS = path.join(FIXTURE, 'projects');
const CSVTABLE = 'envgap-fixtures__csvtable';

function tmpStudy(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-gap-')), 'gap.yaml');
}

describe('envgap import harbor --protocol gap', () => {
  const out = tmpStudy();
  const imported = importHarborGapCommand([path.join(PROJECTS, 'jobs')], { out, tasks: [path.join(PROJECTS, 'tasks')] });
  const study = parseStudyFile(fs.readFileSync(out, 'utf8'), out, loadCatalog());

  it('writes a gap study the study-file parser takes: the trial a replay agent, its task an imported one with its instruction as the prompt', () => {
    expect(study).toMatchObject({ name: '2026-12-01__09-00-00-gap', languages: ['python'], trials: 1, budget: 0 });
    expect(study.agents).toEqual([{ kind: 'replay', name: 'codex', path: path.join(recordingsDir(out), 'projects', 'codex') }]);
    const task = study.tasksByLanguage!.python![0]!;
    expect(task).toMatchObject({ id: CSVTABLE, title: 'Harbor task envgap-fixtures/csvtable', domain: 'harbor' });
    expect(task.prompt).toMatch(/^Write a Python program `\/app\/main.py`/);
    expect(task.prompt).not.toContain('canary');
    expect(imported.unconverted).toEqual([]);
  });

  it("writes the final workspace as iteration 0 of the replay, with Harbor's tokens and cost", () => {
    const at = path.join(recordingsDir(out), 'projects', 'codex', 'python', CSVTABLE, '1', '0');
    expect(fs.readdirSync(at).sort()).toEqual(['.replay.json', 'README.md', 'data.csv', 'main.py', 'requirements.txt']);
    expect(fs.readFileSync(path.join(at, 'requirements.txt'), 'utf8')).toBe('tabulate==0.9.0\nsix==1.16.0\n');
    expect(JSON.parse(fs.readFileSync(path.join(at, '.replay.json'), 'utf8'))).toEqual({ tokens_in: 9120, tokens_out: 640, cost_usd: 0.0182 });
  });

  it('lists the trials without a final workspace, and takes the one that has one', () => {
    const other = tmpStudy();
    const r = importHarborGapCommand([path.join(FIXTURE, 'jobs')], { out: other, tasks: [path.join(FIXTURE, 'tasks')] });
    expect(r.recordings.map((x) => `${x.agent}/${x.language}/${x.task}/${x.trial}`)).toEqual(['terminus-2/python/envgap-fixtures__textstats/1']);
    expect(r.unconverted).toEqual([
      expect.stringMatching(/^trial 2026-11-30__12-00-00\/textstats__Qw8Er2t: no final workspace/),
      expect.stringMatching(/^trial 2026-11-30__12-00-00\/tiny-train__Zx7Cv5b: no final workspace/),
    ]);
  });

  it('refuses inputs with no trial', () => {
    expect(() => importHarborGapCommand([path.join(PROJECTS, 'tasks')], { out: tmpStudy() })).toThrow('no Harbor trial');
  });
});

describe('harborInstruction', () => {
  it("drops Harbor's leading canary comment and the blank line after it", () => {
    expect(harborInstruction('<!-- BENCHMARK DATA ... canary GUID x -->\n\nDo it.\n')).toBe('Do it.');
    expect(harborInstruction('Do it; no canary here.\n')).toBe('Do it; no canary here.');
  });
});

describe('projectLanguage', () => {
  it("is the top manifest's language; with several, the one with most sources; with none, the sources'", () => {
    expect(projectLanguage(['requirements.txt', 'main.py'])).toEqual({ language: 'python', why: 'requirements.txt' });
    expect(projectLanguage(['package.json', 'requirements.txt', 'a.js', 'b.js', 'tool.py'])).toMatchObject({ language: 'javascript' });
    expect(projectLanguage(['src/main.py'])).toEqual({ language: 'python', why: 'no manifest; 1 python sources' });
    expect(projectLanguage(['sub/package.json', 'README.md'])).toEqual({ problem: expect.stringMatching(/^no project: neither a manifest/) });
  });
});
