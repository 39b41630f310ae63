import type { BreakKind, Verdict } from '../domain/confirmation/types';
import { LANGUAGES, type Language } from '../domain/instance';
import { ECOSYSTEMS } from '../ecosystems/registry';
import { envgapExpectation } from './expected';
import type { CalibrationTruth } from './truth';

/** One phantom of a calibration project (a D1 name envgap does not find in D3) and what taking it out of the manifest does. */
export interface ConfirmationRow {
  language: Language;
  project: string;
  name: string;
  /** Whether the run really used the package (the truth's `run`): a phantom it used is one the trace missed. */
  usedByRun: boolean;
  removal: Verdict | 'untried';
  how: BreakKind | null;
  /** The ids of the truth's cases that name it. */
  cases: string[];
}

interface Project {
  project: string;
  truth: CalibrationTruth;
}

const usedByRun = (t: CalibrationTruth, name: string) => t.run.used.includes(t.declared_as[name] ?? name);
const casesOf = (t: CalibrationTruth, name: string) => t.cases.filter((c) => c.names.includes(name)).map((c) => c.id);

/** The phantoms envgap is expected to report for a project (the truth with its known limitations), with the truth's verdicts. */
export function expectedConfirmations(projects: readonly Project[]): ConfirmationRow[] {
  return projects.flatMap(({ project, truth }) =>
    envgapExpectation(truth, 'phantoms')!.present.map((name) => ({
      language: truth.language,
      project,
      name,
      usedByRun: usedByRun(truth, name),
      removal: truth.confirmation[name]!,
      how: truth.confirmation[name] === 'needed' ? (truth.confirmation_broke[name] ?? null) : null,
      cases: casesOf(truth, name),
    })),
  );
}

/** What a confirmation of a project gave: each phantom (D1 \ D3, as observed) with its `phantom_check` verdict (untried where it has none) and how it broke. */
export function measuredConfirmations(p: Project, phantoms: readonly string[], check: Readonly<Record<string, Verdict>>, broke: Readonly<Record<string, { how: BreakKind }>>): ConfirmationRow[] {
  return [...phantoms].sort().map((name) => ({
    language: p.truth.language,
    project: p.project,
    name,
    usedByRun: usedByRun(p.truth, name),
    removal: check[name] ?? 'untried',
    how: check[name] === 'needed' ? (broke[name]?.how ?? null) : null,
    cases: casesOf(p.truth, name),
  }));
}

/** The verdict table docs/ecosystems.md publishes ("Phantom confirmation on the calibration suite"), as Markdown lines: languages in envgap's order, then the rows' own. */
export function confirmationVerdictTable(rows: readonly ConfirmationRow[]): string {
  const lines = ['| language | project | phantom | used by the run | removal | how it broke | case |', '|---|---|---|---|---|---|---|'];
  const ordered = [...rows].sort((a, b) => LANGUAGES.indexOf(a.language) - LANGUAGES.indexOf(b.language));
  for (const r of ordered) {
    lines.push(`| ${ECOSYSTEMS[r.language].displayName} | ${r.project.split('/')[1]} | ${r.name} | ${r.usedByRun ? 'yes' : 'no'} | ${r.removal} | ${r.how ?? '–'} | ${r.cases.join(', ') || '–'} |`);
  }
  return lines.join('\n');
}
