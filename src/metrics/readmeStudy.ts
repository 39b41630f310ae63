import type { ReadmeRecord } from '../domain/readme';
import { aggregateReadmeScores, type ReadmeFileScore, type ReadmeScores } from './readme';
import { faultAsFailureScore } from './readme/faultScore';

export interface PassAt1 {
  /** Scripts that ran and passed, over the instances whose script could be judged (infrastructure faults and skips leave it). */
  passed: number;
  attempted: number;
  rate: number | null;
  skipped: number;
  infra_errors: number;
  /**
   * Harness faults where a verdict was due: the scripts' infrastructure faults, and, where the study
   * judged any script, instances that ended in a harness error before theirs was (docs/metrics.md,
   * "Both denominators").
   */
  harness_errors: number;
  /** passed / (attempted + harness_errors): the faults counted as failures */
  rate_errors_as_failures: number | null;
  rate_errors_delta: number | null;
}

/** The README scores with the group's harness faults scored as failures, and their differences from the scores without them. */
export interface ReadmeScoresWithFaults {
  /** READMEs that ended in a harness fault and have a gold to score against */
  harness_errors: number;
  type: { precision: number; recall: number; f1: number };
  description_accuracy: number | null;
  fix_accuracy: number | null;
  delta: { type: { precision: number; recall: number; f1: number }; description_accuracy: number | null; fix_accuracy: number | null };
}

export interface ReadmeGroup extends Omit<ReadmeScores, 'per_file'> {
  agent: string;
  instances: number;
  /** Answers that did not parse (the agent's invalid_answer), failed, or ran out of time. */
  answers: { answered: number; invalid_answer: number; failed: number; timeout: number };
  harness_errors: number;
  pass_at_1: PassAt1;
  /** The second denominator: the same scores with the harness faults counted as failures. */
  errors_as_failures: ReadmeScoresWithFaults;
}

const difference = (a: number | null, b: number | null) => (a === null || b === null ? null : b - a);

/** Pass@1 over a set of records: pass / (pass + fail); a skip or an infrastructure fault is neither. Beside it, the faults counted as failures. */
export function passAt1(records: readonly ReadmeRecord[]): PassAt1 {
  const of = (s: string) => records.filter((r) => r.pass?.status === s).length;
  const passed = of('pass');
  const attempted = passed + of('fail');
  const infraErrors = of('infra_error');
  const judged = records.some((r) => r.pass !== null && r.pass.status !== 'skipped');
  const harnessErrors = infraErrors + (judged ? records.filter((r) => r.status === 'error' && r.pass === null).length : 0);
  const rate = attempted === 0 ? null : passed / attempted;
  const asFailures = attempted + harnessErrors === 0 ? null : passed / (attempted + harnessErrors);
  return {
    passed, attempted, rate, skipped: of('skipped'), infra_errors: infraErrors,
    harness_errors: harnessErrors, rate_errors_as_failures: asFailures, rate_errors_delta: difference(rate, asFailures),
  };
}

function withFaults(records: readonly ReadmeRecord[], scored: readonly ReadmeFileScore[], scores: Omit<ReadmeScores, 'per_file'>): ReadmeScoresWithFaults {
  const accuracyFiles = scored.filter((f) => f.gold_errors > 0);
  const judges = { descriptions: accuracyFiles.some((f) => f.description_accuracy !== null), fixes: accuracyFiles.some((f) => f.fix_accuracy !== null) };
  const faults = records
    .filter((r) => r.status === 'error' && r.score === null)
    .map((r) => faultAsFailureScore(r, scores.judge, judges))
    .filter((f): f is ReadmeFileScore => f !== null);
  const all = aggregateReadmeScores([...scored, ...faults], scores.judge);
  const type = { precision: all.type.precision, recall: all.type.recall, f1: all.type.f1 };
  return {
    harness_errors: faults.length,
    type,
    description_accuracy: all.description_accuracy,
    fix_accuracy: all.fix_accuracy,
    delta: {
      type: { precision: type.precision - scores.type.precision, recall: type.recall - scores.type.recall, f1: type.f1 - scores.type.f1 },
      description_accuracy: difference(scores.description_accuracy, all.description_accuracy),
      fix_accuracy: difference(scores.fix_accuracy, all.fix_accuracy),
    },
  };
}

/** A README study's scores per agent (in the order agents first appear), as `envgap readme metrics` prints them. */
export function readmeStudyMetrics(records: readonly ReadmeRecord[]): { groups: ReadmeGroup[] } {
  const agents = [...new Set(records.map((r) => r.agent))];
  return {
    groups: agents.map((agent) => {
      const mine = records.filter((r) => r.agent === agent);
      const scored = mine.filter((r) => r.score !== null).map((r) => r.score as unknown as ReadmeFileScore);
      const judge = scored[0]?.judge ?? 'none';
      const { per_file: _perFile, ...scores } = aggregateReadmeScores(scored, judge);
      const count = (s: string) => mine.filter((r) => r.answer?.status === s).length;
      return {
        agent,
        instances: mine.length,
        ...scores,
        answers: { answered: count('answered'), invalid_answer: count('invalid_answer'), failed: count('failed'), timeout: count('timeout') },
        harness_errors: mine.filter((r) => r.status === 'error').length,
        pass_at_1: passAt1(mine),
        errors_as_failures: withFaults(mine, scored, scores),
      };
    }),
  };
}
