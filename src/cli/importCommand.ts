import * as fs from 'node:fs';
import { importEnvgapCsv, type EnvgapImportOptions } from '../importers/envgapCsv';
import { readEnvgapDir } from '../importers/readEnvgapDir';

/**
 * `envgap import envgap-csv DIR --out FILE.jsonl`: the EnvGap paper's per-run CSVs as instance
 * records, one JSON line each (the format `envgap export` writes and `envgap metrics` reads).
 */
export function importEnvgapCsvCommand(dir: string, out: string, opts: EnvgapImportOptions = {}): { records: number } {
  const records = importEnvgapCsv(readEnvgapDir(dir), opts);
  fs.writeFileSync(out, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return { records: records.length };
}
