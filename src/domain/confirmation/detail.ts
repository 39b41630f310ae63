/** What a confirmation writes into an instance record (docs/record.md); imports nothing, so the record's schema can use it. */
export type Verdict = 'unneeded' | 'needed';

/** How a project broke without a name: its install (apt.txt, pip, npm), its build (Maven, CMake), the run's exit, or the run's output. */
export const BREAK_KINDS = ['install-failed', 'build-failed', 'run-exit-differs', 'output-differs'] as const;
export type BreakKind = (typeof BREAK_KINDS)[number];

export interface Broke {
  how: BreakKind;
  /** A short excerpt: the failing step's output tail, or the first line that differs. */
  excerpt: string;
}

/** The record's account of a confirmation, beside `phantom_check` and `bloat_check` (docs/record.md). */
export interface ConfirmationDetail {
  /**
   * Whether the unchanged project ran as it did (a success); where it did not, nothing was tried, and
   * how it broke. Null where it was not run: no name to try, or a harness fault before it.
   */
  baseline: { reproduced: true } | ({ reproduced: false } & Broke) | null;
  /** Trial executions run, the unchanged project's included, and the most allowed. */
  trials: number;
  max_trials: number;
  /** False where two runs of the unchanged project printed differently (after normalising): then only exits are compared. */
  output_compared: boolean;
  /** Execution time of all trials together, in milliseconds: the cost of the confirmation. */
  duration_ms: number;
  phantom: NamesDetail & { not_in_final_manifest: string[] };
  /** Absent where there was no installed set; `unsupported` says why the ecosystem cannot remove an installed package. */
  bloat?: NamesDetail | { unsupported: string };
  /** A harness fault that ended the confirmation early (names not yet decided are untried). */
  error?: string;
}

export interface NamesDetail {
  /** How each `needed` name broke the project. */
  broke: Record<string, Broke>;
  /** Names left untried: the trial budget ran out, or the manifest could not lose them. */
  untried: string[];
  /** Names that broke the project alone but not with the unneeded ones gone too (needed only by another, unneeded declaration): unneeded. Absent where none. */
  together?: string[];
}

/** What a confirmation adds to an instance record. */
export interface ConfirmationFields {
  phantom_check?: Record<string, Verdict>;
  bloat_check?: Record<string, Verdict>;
  confirmation: ConfirmationDetail;
}
