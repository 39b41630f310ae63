import * as fs from 'node:fs';
import * as path from 'node:path';
import type { UsageRecord } from '../domain/agentUsage';
import { parseInstanceJsonl, validateInstanceRecords } from '../importers/instanceJsonl';
import { computeMetrics, formatMetricsTable, metricsToCsv } from '../metrics';
import { loadCatalog } from '../catalog/catalog';
import { stdlibAnnotation } from '../catalog/stdlibAnnotation';
import { formatNoiseFloor, noiseFloorToCsv } from '../metrics/formatNoiseFloor';
import { noiseFloor, type NoiseFloor } from '../metrics/noiseFloor';
import { keepUsage, usageOfJsonl, withUsage } from './gapUsage';
import { say } from './say';

export interface MetricsCommandOptions {
  input?: string;
  study?: string;
  format: 'json' | 'table' | 'csv';
  /** folder for --format csv; default metrics-csv/ */
  out?: string;
  /** `--count-environment`: keep failures classed Environment in the metrics (default: left out and counted) */
  countEnvironment?: boolean;
  /** `--exclude-test-scope`: D1 without its test-scoped names */
  excludeTestScope?: boolean;
  /** `--exclude-human-repairs`: a success reached through a person's iteration is not the agent's */
  excludeHumanRepairs?: boolean;
  /** `--stdlib-from-runs`: M7's eligibility from the runs alone (the paper's data), not the catalog's a-priori annotation */
  stdlibFromRuns?: boolean;
  /** `--noise`: the instrument's noise floor over the records' trials (the same agent output each trial) instead of M1-M8 */
  noise?: boolean;
}

/** The records, each with its agent usage where the file or the database holds one. */
async function loadRecords(
  opts: MetricsCommandOptions,
  loadStudyRecords: (name: string) => Promise<UsageRecord[]>,
): Promise<UsageRecord[]> {
  if ((opts.input === undefined) === (opts.study === undefined)) throw new Error('metrics: give exactly one of --input FILE or --study NAME');
  if (opts.input !== undefined) {
    const text = fs.readFileSync(opts.input, 'utf8');
    return withUsage(parseInstanceJsonl(text, opts.input), usageOfJsonl(text, opts.input));
  }
  const name = opts.study as string;
  const loaded = await loadStudyRecords(name);
  const records = keepUsage(validateInstanceRecords(loaded, `study ${name}`), loaded);
  if (records.length === 0) throw new Error(`metrics: study "${name}" has no instance records`);
  return records;
}

/** `envgap metrics`: M1-M8, and what the agents spent, over instance records from a JSONL file or a study in the database. */
export async function metricsCommand(
  opts: MetricsCommandOptions,
  loadStudyRecords: (name: string) => Promise<UsageRecord[]>,
): Promise<void> {
  const records = await loadRecords(opts, loadStudyRecords);
  if (opts.noise === true) return writeNoiseFloor(noiseFloor(records), opts);
  const report = computeMetrics(records, {
    countEnvironment: opts.countEnvironment === true,
    excludeTestScope: opts.excludeTestScope === true,
    excludeHumanRepairs: opts.excludeHumanRepairs === true,
    ...(opts.stdlibFromRuns === true ? {} : { stdlibAnnotation: stdlibAnnotation(loadCatalog().tasks) }),
  });
  if (opts.format === 'json') {
    process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  } else if (opts.format === 'table') {
    process.stdout.write(formatMetricsTable(report));
  } else {
    const dir = opts.out ?? 'metrics-csv';
    fs.mkdirSync(dir, { recursive: true });
    const files = metricsToCsv(report);
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    say(`metrics: ${Object.keys(files).length} CSV files written to ${dir}`);
  }
}

/** `envgap metrics --noise`: the noise floor as json, a table, or two CSV files. */
function writeNoiseFloor(noise: NoiseFloor, opts: MetricsCommandOptions): void {
  if (opts.format === 'json') {
    process.stdout.write(JSON.stringify(noise, null, 2) + '\n');
  } else if (opts.format === 'table') {
    process.stdout.write(formatNoiseFloor(noise));
  } else {
    const dir = opts.out ?? 'metrics-csv';
    fs.mkdirSync(dir, { recursive: true });
    const files = noiseFloorToCsv(noise);
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    say(`metrics: ${Object.keys(files).length} CSV files written to ${dir}`);
  }
}
