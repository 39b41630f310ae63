import { parseReadinessStudyFile } from '../../../src/cli/readinessStudyFile';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { importResearchEnvBenchCommand, importResearchEnvBenchReposCommand, readinessMetricsText } from '../../../src/cli/readinessCommands';
import { parseReadinessJsonl } from '../../../src/importers/readinessJsonl';
import { FILL_IN, researchEnvBenchStudy } from '../../../src/importers/researchenvbenchRepos';
import { computeReadinessMetrics, formatReadinessTable, readinessToCsv } from '../../../src/metrics/readiness';
import { pythonRound } from '../../../src/metrics/readiness/pythonRound';
import { CATEGORIES, TOTALS, writeScenario } from './scenario';
import { CATEGORIES_HEADER } from './upstreamRun';

describe('pythonRound', () => {
  // Python 3.11's round() on each input (ties to even on the exact binary value).
  it.each([
    [0.125, 2, 0.12], [2.675, 2, 2.67], [0.5, 0, 0], [1.5, 0, 2], [2.5, 0, 2], [1234.5678, 2, 1234.57], [0.0005, 3, 0.001],
    [0.0015, 3, 0.002], [99.995, 2, 100], [9.9995, 3, 9.999], [-2.5, 0, -2], [1e-7, 3, 0], [1899.9999, 2, 1900], [1.0005, 3, 1], [2.345, 2, 2.35], [0.285, 2, 0.28],
  ])('round(%p, %p) == %p', (x, digits, expected) => {
    expect(pythonRound(x, digits)).toBe(expected);
  });
});

describe('upstream categories CSV to a readiness study', () => {
  const csv = [CATEGORIES_HEADER, ...CATEGORIES, 'x@y,x/y,,,yes,no,no,,,,cpu'].join('\n') + '\n';

  it('gives each repository its source, supports and an empty entry to fill', () => {
    const study = researchEnvBenchStudy(csv, 'c.csv');
    expect(study.protocol).toBe('readiness');
    expect(study.repos[0]).toEqual({ id: 'Owner@Alpha', source: { git: 'https://github.com/Owner/Alpha', commit: 'aaaa' }, supports: ['cpu', 'single_gpu', 'multi_gpu'], entry: {} });
    expect(study.repos.map((r) => r.supports.join('+'))).toEqual(['cpu+single_gpu+multi_gpu', 'cpu', 'single_gpu+multi_gpu', 'cpu']);
    expect(study.repos[3].source).toEqual({ git: FILL_IN, commit: FILL_IN });
  });

  it('writes YAML that reads back, noting what is left to fill', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reb-repos-'));
    fs.writeFileSync(path.join(dir, 'c.csv'), csv);
    const out = path.join(dir, 'study.yaml');
    expect(importResearchEnvBenchReposCommand(path.join(dir, 'c.csv'), { out })).toEqual({ repos: 4 });
    const text = fs.readFileSync(out, 'utf8');
    expect(parse(text)).toEqual(researchEnvBenchStudy(csv, 'c.csv'));
    expect(text).toContain(`# ${FILL_IN}: no git link or commit in the CSV for x@y.`);
    // A readiness study as envgap runs it, once what the CSV lacks is filled in.
    const filled = text.replace(`git: ${FILL_IN}`, 'git: https://example.org/x/y').replace(`commit: ${FILL_IN}`, 'commit: 0123abc');
    const parsed = parseReadinessStudyFile(filled, out);
    expect(parsed.repos.map((r) => r.id)).toEqual(['Owner@Alpha', 'owner@beta', 'owner@gamma', 'x@y']);
    expect(() => parseReadinessStudyFile(text, out)).toThrow(/repos\[3\]\.source/);
  });

  it('names a CSV without the columns it needs', () => {
    expect(() => researchEnvBenchStudy('repo,commit\na/b,c\n', 'c.csv')).toThrow(/^c\.csv: no column repo_slug, git_link, supports_cpu/);
  });
});

describe('readiness records as JSON lines, and the commands', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reb-cli-'));
  const totalsFile = path.join(dir, 'totals.json');
  fs.writeFileSync(totalsFile, JSON.stringify({ repos: TOTALS }));
  const out = path.join(dir, 'r.jsonl');
  importResearchEnvBenchCommand(writeScenario(), { out, c0Totals: totalsFile });
  const records = parseReadinessJsonl(fs.readFileSync(out, 'utf8'), out);

  it('writes what it imports and reads it back', () => {
    expect(records.map((r) => r.repo)).toEqual(['Owner/Alpha', 'owner/beta', 'owner/gamma', 'owner/delta', 'Owner/Alpha']);
  });

  it('names the file, the line and the field of a bad record', () => {
    const text = [JSON.stringify(records[0]), JSON.stringify({ ...records[1], trial: 0 })].join('\n');
    expect(() => parseReadinessJsonl(text, 'r.jsonl')).toThrow(/^r\.jsonl line 2: field trial: /);
    expect(() => parseReadinessJsonl('{"schema"', 'r.jsonl')).toThrow(/^r\.jsonl line 1: not JSON/);
  });

  it('prints the metrics json in the agreed shape', () => {
    const json = JSON.parse(readinessMetricsText(records, { format: 'json', mode: 'upstream', c0Totals: totalsFile })) as { groups: Record<string, unknown>[] };
    expect(Object.keys(json.groups[0])).toEqual(expect.arrayContaining(['baseline', 'jobs', 'c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'agent_time_avg_s', 'env_size_avg_gb']));
    expect(json.groups[0].c0).toEqual({ missing: 43, total: 130, unknown: 1 });
  });

  it('formats a table and a csv from the same numbers', () => {
    const metrics = computeReadinessMetrics(records, { mode: 'envgap', c0Totals: TOTALS });
    const table = formatReadinessTable(metrics);
    expect(table.split('\n')[0]).toBe('readiness (envgap scoring)');
    expect(table).toContain('43/100 (1 unknown)');
    const [header, first] = readinessToCsv(metrics).split('\n');
    const row = Object.fromEntries(header.split(',').map((h, i) => [h, first.split(',')[i]]));
    expect([row.baseline, row.c4_excluded, row.c2_applicable, row.c0_unknown]).toEqual(['claude', '2', '2', '1']);
  });
});
