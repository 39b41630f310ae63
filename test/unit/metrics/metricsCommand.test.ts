import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { metricsCommand } from '../../../src/cli/metricsCommand';
import type { InstanceRecord } from '../../../src/domain/instance';
import { record } from './records';

describe('envgap metrics', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'envgap-metrics-'));
  const input = path.join(dir, 'records.jsonl');
  const records = [
    record({ agent: 'claude', declared: ['a'], installed: ['a', 'b'], traced: ['a'] }),
    record({ agent: 'codex', declared: ['a'], installed: ['a'], traced: ['a'] }),
    record({ agent: 'codex', task: 'p_02', status: 'error', error: { kind: 'docker', message: 'gone' }, traced: null }),
  ];
  fs.writeFileSync(input, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const noStudy = async (): Promise<InstanceRecord[]> => {
    throw new Error('no database in this test');
  };

  let stdout: string;
  beforeEach(() => {
    stdout = '';
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stdout += String(chunk);
      return true;
    });
    jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('--format json prints the report', async () => {
    await metricsCommand({ input, format: 'json' }, noStudy);
    const report = JSON.parse(stdout);
    expect(report.excluded_errors).toBe(1);
    expect(report.cells.map((c: { agent: string }) => c.agent)).toEqual(['claude', 'codex']);
    expect(report.cross_agent[0]).toMatchObject({ pair: 'claude-codex', n: 1, jaccard_mean: 1 });
  });

  it('leaves Environment failures out unless --count-environment (countEnvironment) puts them back', async () => {
    const envInput = path.join(dir, 'environment.jsonl');
    const withEnvironment = [
      record({ agent: 'claude' }),
      record({ agent: 'claude', task: 'p_02', status: 'failed', first_attempt_success: false, repair_depth: null, first_error_class: 'Environment', traced: null }),
    ];
    fs.writeFileSync(envInput, withEnvironment.map((r) => JSON.stringify(r)).join('\n') + '\n');
    await metricsCommand({ input: envInput, format: 'json' }, noStudy);
    expect(JSON.parse(stdout)).toMatchObject({ count_environment: false, environment_excluded: 1, cells: [{ n: 1, final_sr: 1 }] });
    stdout = '';
    await metricsCommand({ input: envInput, format: 'json', countEnvironment: true }, noStudy);
    expect(JSON.parse(stdout)).toMatchObject({ count_environment: true, environment_excluded: 0, cells: [{ n: 2, final_sr: 0.5 }] });
    stdout = '';
    await metricsCommand({ input: envInput, format: 'table' }, noStudy);
    expect(stdout).toMatch(/^envgap metrics: 2 records, primary trial 1, 0 left out \(status error\), 1 left out \(Environment\)/);
  });

  it('--format table prints the Table 4 layout first', async () => {
    await metricsCommand({ input, format: 'table' }, noStudy);
    expect(stdout).toMatch(/^envgap metrics: 3 records, primary trial 1, 1 left out/);
    expect(stdout).toMatch(/\nclaude\s+Python\s+1\s+100\.0/);
  });

  it('--format csv writes one file per section', async () => {
    const out = path.join(dir, 'csv');
    await metricsCommand({ input, format: 'csv', out }, noStudy);
    expect(fs.readdirSync(out)).toContain('cells.csv');
    expect(fs.readFileSync(path.join(out, 'summary.csv'), 'utf8')).toContain('envgap.metrics/v1,1,3,1,');
  });

  it('--study reads the records from the database through the given loader', async () => {
    await metricsCommand({ study: 's1', format: 'json' }, async (name) => (name === 's1' ? records : []));
    expect(JSON.parse(stdout).records).toBe(3);
    await expect(metricsCommand({ study: 'empty', format: 'json' }, async () => [])).rejects.toThrow(/study "empty" has no instance records/);
  });

  it('per agent and language, the usage exported records carry (from a file or the database); none: null, not 0', async () => {
    const usage = { calls: 2, tokens_in: 300, tokens_out: 40, cost_usd: null, cost_calls: 0, agent_time_s: 7.5, agent_versions: ['codex-cli 0.5'], cost_sources: [] };
    const withUsage = [{ ...records[1], agent_usage: usage }, records[0]];
    const usageInput = path.join(dir, 'usage.jsonl');
    fs.writeFileSync(usageInput, withUsage.map((r) => JSON.stringify(r)).join('\n') + '\n');
    await metricsCommand({ input: usageInput, format: 'json' }, noStudy);
    expect(JSON.parse(stdout).usage).toEqual([{ agent: 'codex', language: 'python', instances: 1, ...usage }]);
    stdout = '';
    await metricsCommand({ study: 's1', format: 'json' }, async () => withUsage);
    expect(JSON.parse(stdout).usage).toEqual([{ agent: 'codex', language: 'python', instances: 1, ...usage }]);
    stdout = '';
    await metricsCommand({ input: usageInput, format: 'table' }, noStudy);
    expect(stdout).toMatch(/\ncodex\s+Python\s+1\s+2\s+300\s+40\s+-\s+-\s+7\.5\s+codex-cli 0\.5\n/);
  });

  it('names the file, line and field of a bad record', async () => {
    const bad = path.join(dir, 'bad.jsonl');
    fs.writeFileSync(bad, JSON.stringify(records[0]) + '\n' + JSON.stringify({ ...records[0], language: 'cobol' }) + '\n');
    await expect(metricsCommand({ input: bad, format: 'json' }, noStudy)).rejects.toThrow(
      new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} line 2: field language: `),
    );
  });

  it('wants exactly one of --input and --study', async () => {
    await expect(metricsCommand({ format: 'json' }, noStudy)).rejects.toThrow(/exactly one of --input FILE or --study NAME/);
    await expect(metricsCommand({ input, study: 's1', format: 'json' }, noStudy)).rejects.toThrow(/exactly one/);
  });
});
