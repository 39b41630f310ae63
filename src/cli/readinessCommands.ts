import * as fs from 'node:fs';
import * as path from 'node:path';
import { SUPPORTS, type ReadinessRecord } from '../domain/readiness';
import { readC0Totals } from '../importers/researchenvbenchC0Totals';
import { importResearchEnvBenchRun } from '../importers/researchenvbench';
import { readResearchEnvBenchCheckout } from '../importers/researchenvbenchCheckout';
import { researchEnvBenchCheckoutStudy, researchEnvBenchStudy, researchEnvBenchStudyYaml } from '../importers/researchenvbenchRepos';
import { parseReadinessJsonl } from '../importers/readinessJsonl';
import { computeReadinessMetrics, formatReadinessTable, readinessToCsv, type ReadinessMode } from '../metrics/readiness';
import { say } from './say';

export interface ReadinessMetricsOptions {
  /** JSON lines of readiness records. */
  input?: string;
  format: 'json' | 'table' | 'csv';
  mode: ReadinessMode;
  /** A C0 totals file in upstream's format; upstream mode defaults to the shipped copy of upstream's. */
  c0Totals?: string;
}

/** The metrics of records (from a file, or the database for `--study`) as the chosen format prints them. */
export function readinessMetricsText(records: readonly ReadinessRecord[], opts: Omit<ReadinessMetricsOptions, 'input'>): string {
  const c0Totals = opts.c0Totals !== undefined ? readC0Totals(opts.c0Totals) : opts.mode === 'upstream' ? readC0Totals() : undefined;
  const metrics = computeReadinessMetrics(records, { mode: opts.mode, c0Totals });
  if (opts.format === 'json') return JSON.stringify(metrics, null, 2) + '\n';
  return opts.format === 'table' ? formatReadinessTable(metrics) : readinessToCsv(metrics);
}

/** `envgap readiness-metrics --input FILE [--format] [--mode envgap|upstream] [--c0-totals FILE]`. */
export function readinessMetricsCommand(opts: ReadinessMetricsOptions): void {
  if (opts.input === undefined) throw new Error('readiness metrics: give --input FILE (JSON lines of readiness records)');
  const records = parseReadinessJsonl(fs.readFileSync(opts.input, 'utf8'), opts.input);
  if (records.length === 0) throw new Error(`readiness metrics: ${opts.input} holds no readiness records`);
  process.stdout.write(readinessMetricsText(records, opts));
}

/** `envgap import researchenvbench RUN_DIR --out FILE.jsonl`: one readiness record per upstream job. */
export function importResearchEnvBenchCommand(
  runDir: string,
  opts: { out: string; c0Totals?: string; categories?: string; study?: string },
): { records: number } {
  const records = importResearchEnvBenchRun(runDir, {
    c0Totals: opts.c0Totals === undefined ? undefined : readC0Totals(opts.c0Totals),
    categoriesCsv: opts.categories,
    study: opts.study,
  });
  fs.writeFileSync(opts.out, records.map((r) => JSON.stringify(r)).join('\n') + (records.length > 0 ? '\n' : ''));
  say(`import researchenvbench: ${records.length} readiness records written to ${opts.out}`);
  return { records: records.length };
}

/**
 * `envgap import researchenvbench-repos CSV|DIR --out STUDY.yaml`: upstream's repositories as a
 * readiness study; from a checkout of upstream's repository (DIR), with each supported stage's command.
 */
export function importResearchEnvBenchReposCommand(input: string, opts: { out: string; name?: string }): { repos: number; unconverted?: number } {
  if (fs.statSync(input).isDirectory()) {
    const { study, unconverted } = researchEnvBenchCheckoutStudy(readResearchEnvBenchCheckout(input, path.dirname(opts.out)), opts.name);
    fs.writeFileSync(opts.out, researchEnvBenchStudyYaml(study, unconverted));
    const counts = SUPPORTS.map((s) => `${s} ${study.repos.filter((r) => r.entry[s] !== undefined).length}`).join(', ');
    const left = unconverted.length === 0 ? 'every supported stage has its command' : `${unconverted.length} with a supported stage left without one (listed at the top of the file)`;
    say(`import researchenvbench-repos: ${study.repos.length} repositories written to ${opts.out}; commands: ${counts}; ${left}`);
    return { repos: study.repos.length, unconverted: unconverted.length };
  }
  const study = researchEnvBenchStudy(fs.readFileSync(input, 'utf8'), input, opts.name);
  fs.writeFileSync(opts.out, researchEnvBenchStudyYaml(study));
  say(`import researchenvbench-repos: ${study.repos.length} repositories written to ${opts.out}; fill in their entry commands`);
  return { repos: study.repos.length };
}
