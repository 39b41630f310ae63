import type { ExecutionStep } from '../execution';
import type { RunSpec } from '../runSpec';
import type { Language } from '../instance';
import type { ContainerLimits } from '../study';
import type { NameList } from '../nameList';
import type { Broke } from './detail';

/**
 * Phantom confirmation (issue 26 item 1, docs/confirmation.md): a declared-but-untraced name (a
 * phantom) or an installed-but-untraced one (bloat) is taken out of the final manifest and the project
 * reinstalled, rebuilt and re-run in a fresh sandbox: `unneeded` where it still builds and runs with
 * the same exit and output, `needed` where it breaks (the trace missed it).
 */
export type { Verdict, BreakKind, Broke, ConfirmationDetail, NamesDetail, ConfirmationFields } from './detail';
export { BREAK_KINDS } from './detail';

/** A trial's run compared with the unchanged project's. */
export type TrialComparison = { same: true } | ({ same: false } & Broke);

/** What to take out in a trial: declared names (from the manifest and apt.txt) and installed ones (excluded from what brings them). Both empty: the unchanged project. */
export interface TrialRemoval {
  declared: string[];
  installed: string[];
}

/** What one run of a (changed or unchanged) project gave, as the trial activity reports it. */
export interface TrialRun {
  success: boolean;
  failedStep: ExecutionStep | null;
  exitCode: number | null;
  runKind: 'program' | 'service' | null;
  /** The blob of the run's output, normalised (src/domain/confirmation/runOutput.ts); null where the run was not reached. */
  outputHash: string | null;
  /** Milliseconds of the trial's execution, container and image included. */
  durationMs: number;
}

/** The unchanged project's run that trials are compared with (a success: otherwise nothing is tried). */
export type BaselineRun = TrialRun & { success: true };

export interface RemovalTrialInput {
  /** The workflow that runs the trial (the instance's, or its confirmation's): its sandbox carries it, so `envgap cleanup` knows whose it is. */
  owner: string;
  language: Language;
  /** The final iteration's project, and how it was run. */
  filesHash: string;
  run?: RunSpec;
  limits: ContainerLimits;
  remove: TrialRemoval;
  /** Names the sandbox of this trial (with the instance id): the same trial always gets the same name. */
  key: string;
  /** The run to compare with; absent for the unchanged project's first run. */
  baseline?: BaselineRun;
  /** Whether output is compared (false once two runs of the unchanged project printed differently). */
  compareOutput: boolean;
  /** The study's `resolve_as_of` (YYYY-MM-DD, docs/resolution.md): every trial installs as of that day; absent where the study had none. */
  resolveAsOf?: string;
}

export interface RemovalTrialResult {
  run: TrialRun;
  /** Against the baseline, where one was given. */
  comparison: TrialComparison | null;
  /** Names the transform did not find in the manifest (not taken out). */
  notFound: string[];
}

/** What a confirmation needs of an instance: its final project and run, and its layers. */
export interface ConfirmationSubject {
  instanceId: string;
  language: Language;
  filesHash: string;
  run?: RunSpec;
  limits: ContainerLimits;
  declared: NameList;
  installed: NameList | null;
  traced: NameList;
  /** The study's `resolve_as_of`, given to every trial; absent where the study had none. */
  resolveAsOf?: string;
}

/** Which names a confirmation will try, as the final project allows (the plan activity's answer). */
export interface ConfirmationPlan {
  phantom: {
    /** In the final manifest and removable: tried. */
    removable: string[];
    /** Declared in M0 but not in the final manifest: the final project ran without them, so unneeded without a trial. */
    notInFinalManifest: string[];
    /** In the final manifest, but where the transform cannot take them out (an included CMake file, ...): untried. */
    notRemovable: string[];
  };
  /** Installed, not traced: the names to try, or why this ecosystem cannot remove one (absent: no installed set). */
  bloat?: { removable: string[] } | { unsupported: string };
}


/** Trials an instance's confirmation may run by default (the unchanged project's runs included). */
export const DEFAULT_CONFIRM_MAX_TRIALS = 24;
/** Above this many names, a group is taken out at once and split where it breaks (bisection); at most this many are tried one by one. */
export const ONE_BY_ONE_MAX = 8;
