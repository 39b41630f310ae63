import { LANGUAGES, type Language } from '../domain/instance';
import { ECOSYSTEMS } from '../ecosystems/registry';
import { envgapExpectation } from './expected';
import { pool, precisionRecall, scoreBuilt, scorePhantoms, scoreTraced, type Confusion } from './score';
import type { CalibrationTruth } from './truth';

/** One calibration project's truth with the D1 and D3 that envgap gave (or is expected to give) for it. */
export interface CalibrationResult {
  project: string;
  truth: CalibrationTruth;
  declared: readonly string[];
  traced: readonly string[];
  tracedBuild: readonly string[] | null;
}

export interface CalibrationRow {
  language: Language;
  projects: number;
  cases: number;
  traced: { tp: number; fp: number; fn: number; precision: number; recall: number };
  phantoms: { tp: number; fp: number; fn: number; precision: number; recall: number };
  /** D3-build on the build truth's names; null where no project of the language judges a build. */
  built: { tp: number; fp: number; fn: number; precision: number; recall: number } | null;
  known: number;
}

/** Per language, D3 and phantom precision and recall over its projects, pooled (micro). */
export function calibrationRows(results: readonly CalibrationResult[]): CalibrationRow[] {
  const rows: CalibrationRow[] = [];
  for (const language of LANGUAGES) {
    const mine = results.filter((r) => r.truth.language === language);
    if (mine.length === 0) continue;
    const traced = pool(mine.map((r) => scoreTraced(r.truth, r.traced)));
    const phantoms = pool(mine.map((r) => scorePhantoms(r.truth, r.declared, r.traced)));
    const builds = mine.map((r) => scoreBuilt(r.truth, r.tracedBuild)).filter((c): c is Confusion => c !== null);
    const built = builds.length > 0 ? pool(builds) : null;
    rows.push({
      language,
      projects: mine.length,
      cases: mine.reduce((n, r) => n + r.truth.cases.length, 0),
      traced: { ...traced, ...precisionRecall(traced) },
      phantoms: { ...phantoms, ...precisionRecall(phantoms) },
      built: built && { ...built, ...precisionRecall(built) },
      known: mine.reduce((n, r) => n + r.truth.known.length, 0),
    });
  }
  return rows;
}

/**
 * The results envgap is expected to give, from the truths alone: D1 and D3 as the truth has them, turned
 * by the known limitations. The services test checks that envgap gives these (for the names judged), so
 * the table made from them is the one measured.
 */
export function expectedResults(projects: readonly { project: string; truth: CalibrationTruth }[]): CalibrationResult[] {
  return projects.map(({ project, truth }) => ({
    project,
    truth,
    declared: envgapExpectation(truth, 'declared')!.present,
    traced: envgapExpectation(truth, 'traced')!.present,
    tracedBuild: envgapExpectation(truth, 'traced_build')?.present ?? null,
  }));
}

const fixed = (x: number) => x.toFixed(2);
const counts = (c: { tp: number; fp: number; fn: number }) => `${c.tp} / ${c.fp} / ${c.fn}`;

/** The table docs/ecosystems.md publishes ("Tracer calibration"), as Markdown lines. */
export function calibrationTable(rows: readonly CalibrationRow[]): string {
  const lines = [
    '| language | projects | cases | D3 TP / FP / FN | D3 precision | D3 recall | phantom TP / FP / FN | phantom precision | phantom recall | D3-build TP / FP / FN | known limitations |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${ECOSYSTEMS[r.language].displayName} | ${r.projects} | ${r.cases} | ${counts(r.traced)} | ${fixed(r.traced.precision)} | ${fixed(r.traced.recall)} | ` +
        `${counts(r.phantoms)} | ${fixed(r.phantoms.precision)} | ${fixed(r.phantoms.recall)} | ${r.built ? counts(r.built) : '–'} | ${r.known} |`,
    );
  }
  return lines.join('\n');
}
