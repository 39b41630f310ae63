import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { importEnvgapCsvCommand } from '../../../src/cli/importCommand';
import { parseInstanceJsonl } from '../../../src/importers/instanceJsonl';
import { OVERVIEW, runsCsv } from './envgapFixture';

describe('envgap import envgap-csv', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-csv-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes one JSON line per run, readable as instance records', () => {
    fs.mkdirSync(path.join(dir, 'results'));
    fs.mkdirSync(path.join(dir, 'prompts'));
    fs.writeFileSync(path.join(dir, 'prompts', 'prompt_overview.csv'), OVERVIEW);
    fs.writeFileSync(
      path.join(dir, 'results', 'codex_java_reproducibility_analysis.csv'),
      runsCsv([{ task: 'p_01' }, { task: 'p_02', claimed: 'gson:2.10.1', claimedCount: '1', runtime: 'gson-2.10.1.jar' }]),
    );
    fs.writeFileSync(path.join(dir, 'results', 'README.txt'), 'not a csv');
    const out = path.join(dir, 'records.jsonl');

    expect(importEnvgapCsvCommand(dir, out)).toEqual({ records: 2 });
    const records = parseInstanceJsonl(fs.readFileSync(out, 'utf8'), out);
    expect(records.map((r) => [r.agent, r.language, r.task, r.declared, r.traced])).toEqual([
      ['codex', 'java', 'p_01', [], []],
      ['codex', 'java', 'p_02', ['gson'], ['gson']],
    ]);
  });

  it('says which file is missing', () => {
    expect(() => importEnvgapCsvCommand(path.join(dir, 'nowhere'), path.join(dir, 'x.jsonl'))).toThrow(/nowhere\/results: no such folder/);
  });
});
