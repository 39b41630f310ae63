import { excerpt } from '../../text/excerpt';
import type { ExecutionStep } from '../execution';
import type { BreakKind, TrialComparison } from './types';

/** A run of the project as compared: its outcome and its (normalised) output. */
export interface ComparedRun {
  success: boolean;
  failedStep: ExecutionStep | null;
  exitCode: number | null;
  runKind: 'program' | 'service' | null;
  /** Normalised run output (runOutput.ts); null where the run was not reached. */
  output: string | null;
  /** The failing step's output, where a step failed. */
  errorOutput?: string | null;
}

const EXCERPT_CHARS = 300;

/** Which way a failed step broke the project: before the run is the install or the build. */
function stepBreak(step: ExecutionStep): BreakKind {
  return step === 'system' || step === 'install' ? 'install-failed' : step === 'run' ? 'run-exit-differs' : 'build-failed';
}

/**
 * A trial's run against the unchanged project's (a success): the same where it succeeded alike (same
 * exit, same kind of run) and, where output is compared, printed the same; otherwise how it broke,
 * with a short excerpt of why.
 */
export function compareRuns(baseline: ComparedRun, trial: ComparedRun, compareOutput: boolean): TrialComparison {
  if (trial.failedStep !== null && trial.failedStep !== 'run') {
    return { same: false, how: stepBreak(trial.failedStep), excerpt: stepExcerpt(trial.failedStep, trial.errorOutput ?? '') };
  }
  if (trial.success !== baseline.success || trial.exitCode !== baseline.exitCode || trial.runKind !== baseline.runKind) {
    const what = trial.runKind === 'service' || baseline.runKind === 'service' ? `ran as ${trial.runKind ?? 'a failure'}, not ${baseline.runKind}` : `exit ${trial.exitCode ?? 'none'}, not ${baseline.exitCode ?? 'none'}`;
    return { same: false, how: 'run-exit-differs', excerpt: tail(`${what}: ${trial.errorOutput ?? trial.output ?? ''}`) };
  }
  if (compareOutput && (trial.output ?? '') !== (baseline.output ?? '')) {
    return { same: false, how: 'output-differs', excerpt: firstDifference(baseline.output ?? '', trial.output ?? '') };
  }
  return { same: true };
}

/** The end of a step's output, where errors are, capped. */
function tail(text: string, max = EXCERPT_CHARS): string {
  const t = text.trimEnd();
  return t.length <= max ? t : `…${t.slice(t.length - max)}`;
}

const ERROR_LINE = /\berror\b|undefined reference|could not (find|resolve)|cannot find|does not exist|not found/i;
/** Lines that say an error happened but not which: Maven's closing advice, its headings. */
const NOT_WHICH = /-e switch|-X switch|Re-run Maven|\[Help \d+\]|For more information about the errors|full stack trace|COMPILATION ERROR|BUILD FAILURE|^\[ERROR\]\s*$/;

/**
 * A failed step's excerpt: its output's end, and before it, where the end does not hold it, the first
 * line that says which error (a compiler's, CMake's, Maven's first real `[ERROR]`): Maven ends every
 * failure with the same advice, so its end alone says nothing.
 */
function stepExcerpt(step: ExecutionStep, output: string): string {
  const clean = output.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
  const whole = tail(`${step}: ${clean}`);
  const first = clean.split('\n').find((l) => ERROR_LINE.test(l) && !NOT_WHICH.test(l))?.trim();
  if (!first || whole.includes(first)) return whole;
  const head = `${step}: ${excerpt(first, 150)}\n`;
  return head + tail(clean, EXCERPT_CHARS - head.length);
}

/** The first line where two outputs differ, both sides shown. */
export function firstDifference(expected: string, got: string): string {
  const [a, b] = [expected.split('\n'), got.split('\n')];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `line ${i + 1}: expected ${show(a[i])}, got ${show(b[i])}`;
  }
  return 'the outputs differ';
}

function show(line: string | undefined): string {
  return line === undefined ? '(no line)' : JSON.stringify(excerpt(line, 120));
}
