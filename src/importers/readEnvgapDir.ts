import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EnvgapCsvFiles } from './envgapCsv';

/** Reads a folder laid out like shared/data/envgap: results/*.csv and prompts/prompt_overview.csv. */
export function readEnvgapDir(dir: string): EnvgapCsvFiles {
  const resultsDir = path.join(dir, 'results');
  const overviewPath = path.join(dir, 'prompts', 'prompt_overview.csv');
  if (!fs.existsSync(resultsDir)) throw new Error(`${resultsDir}: no such folder (expected results/*.csv)`);
  if (!fs.existsSync(overviewPath)) throw new Error(`${overviewPath}: no such file`);
  const names = fs.readdirSync(resultsDir).filter((f) => f.endsWith('.csv'));
  if (names.length === 0) throw new Error(`${resultsDir}: no .csv files`);
  const results = Object.fromEntries(names.map((f) => [f, fs.readFileSync(path.join(resultsDir, f), 'utf8')]));
  return { results, overview: fs.readFileSync(overviewPath, 'utf8') };
}
