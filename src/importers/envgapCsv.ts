import { parseCsvRecords } from '../catalog/csv';
import { withStdlibSufficiency } from '../metrics/stdlibSufficiency';
import { InstanceRecord, type Language } from '../domain/instance';
import { firstErrorClass } from './envgapErrorClass';
import { dependencyList, type ListReading } from './envgapLists';

export interface EnvgapCsvFiles {
  /** results/*.csv by file name: `<agent>[_trial_<n>]_<language>_reproducibility_analysis.csv` */
  results: Record<string, string>;
  /** prompts/prompt_overview.csv */
  overview: string;
}

export interface EnvgapImportOptions {
  /** the study name the records get; default `envgap-paper` */
  study?: string;
  /** how list cells are split; default `as-published` (see ListReading) */
  lists?: ListReading;
}

const RESULTS_FILE = /^([A-Za-z0-9.-]+)(?:_trial_(\d+))?_(python|java|javascript|cpp)_reproducibility_analysis\.csv$/;
/** run_matrix.csv repeats the per-run files' flags and counts in one table; nothing to add. */
const KNOWN_EXTRA_FILES = new Set(['run_matrix.csv']);
const RUN_COLUMNS = [
  'prompt_id', 'claimed_deps', 'claimed_count', 'transitive_deps', 'transitive_count',
  'initial_execution', 'initial_error_type', 'final_execution', 'runtime_deps',
];

interface Run {
  agent: string;
  trial: number;
  language: Language;
  row: Record<string, string>;
  where: string;
}

function missingColumns(rows: Record<string, string>[], columns: string[]): string[] {
  return rows.length === 0 ? [] : columns.filter((c) => !(c in rows[0]));
}

function flag(value: string, column: string, where: string): boolean {
  const v = value.trim().toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new Error(`${where}: ${column} is "${value}", not True or False`);
}

function count(value: string, column: string, where: string): number | null {
  const v = value.trim();
  if (v === '') return null;
  if (!/^\d+$/.test(v)) throw new Error(`${where}: ${column} is "${value}", not a count`);
  return Number(v);
}

function readRuns(results: Record<string, string>): Run[] {
  const runs: Run[] = [];
  for (const file of Object.keys(results).sort()) {
    const m = RESULTS_FILE.exec(file);
    if (!m) {
      if (KNOWN_EXTRA_FILES.has(file)) continue;
      throw new Error(`results/${file}: not <agent>[_trial_<n>]_<language>_reproducibility_analysis.csv`);
    }
    const rows = parseCsvRecords(results[file]);
    const missing = missingColumns(rows, RUN_COLUMNS);
    if (missing.length > 0) throw new Error(`results/${file}: missing column(s) ${missing.join(', ')}`);
    rows.forEach((row, index) =>
      runs.push({
        agent: m[1],
        trial: m[2] === undefined ? 1 : Number(m[2]),
        language: m[3] as Language,
        row,
        where: `results/${file} record ${index + 2}`,
      }),
    );
  }
  return runs;
}

function readDomains(overview: string): Map<string, string> {
  const rows = parseCsvRecords(overview);
  const missing = missingColumns(rows, ['prompt_id', 'category']);
  if (missing.length > 0) throw new Error(`prompts/prompt_overview.csv: missing column(s) ${missing.join(', ')}`);
  return new Map(rows.map((r) => [r.prompt_id.trim(), r.category.trim()]));
}

function toRecord(run: Run, domains: Map<string, string>, study: string, lists: ListReading): InstanceRecord {
  const { row, language, where } = run;
  const firstOk = flag(row.initial_execution, 'initial_execution', where);
  const finalOk = flag(row.final_execution, 'final_execution', where);
  const task = row.prompt_id.trim();
  const list = (column: string, layer: 'declared' | 'installed' | 'traced') =>
    dependencyList(row[column], language, layer, lists);
  let errorClass: InstanceRecord['first_error_class'] = null;
  if (!firstOk) {
    try {
      errorClass = firstErrorClass(row.initial_error_type, language);
    } catch (err) {
      throw new Error(`${where}: ${(err as Error).message}`);
    }
  }
  return {
    schema: 'envgap.instance/v1',
    study,
    agent: run.agent,
    language,
    task,
    trial: run.trial,
    domain: domains.get(task) ?? null,
    status: finalOk ? 'success' : 'failed',
    first_attempt_success: firstOk,
    // The data set does not record how many repair rounds a repaired run took.
    repair_depth: firstOk ? 0 : null,
    first_error_class: errorClass,
    declared: list('claimed_deps', 'declared'),
    // A blank list beside a positive transitive_count means the list was not written down: it reads
    // as empty (as the paper's script reads it, for the bloat rate) and the count is kept for M2.
    installed: list('transitive_deps', 'installed'),
    traced: finalOk ? list('runtime_deps', 'traced') : null,
    traced_build: null,
    stdlib_sufficient: null,
    declared_count: count(row.claimed_count, 'claimed_count', where),
    installed_count: count(row.transitive_count, 'transitive_count', where),
  };
}

/**
 * The EnvGap data set's per-run CSVs (github.com/bhanuprakashvangala/EnvGap, CC BY 4.0) as instance
 * records, one per (agent, language, task, trial), read by the data set's own conventions
 * (docs/metrics.md). Pure: takes the files' contents.
 */
export function importEnvgapCsv(files: EnvgapCsvFiles, opts: EnvgapImportOptions = {}): InstanceRecord[] {
  const study = opts.study ?? 'envgap-paper';
  const lists = opts.lists ?? 'as-published';
  const domains = readDomains(files.overview);
  const records = readRuns(files.results).map((run) => toRecord(run, domains, study, lists));
  return withStdlibSufficiency(records).map((r) => InstanceRecord.parse(r));
}
