import type { ReadmeRecord } from '../domain/readme';
import { aggregateReadmeScores, type ReadmeFileScore, type ReadmeScores } from './readme';

export interface PassAt1 {
  /** Scripts that ran and passed, over the instances whose script could be judged (infrastructure faults and skips leave it). */
  passed: number;
  attempted: number;
  rate: number | null;
  skipped: number;
  infra_errors: number;
}

export interface ReadmeGroup extends Omit<ReadmeScores, 'per_file'> {
  agent: string;
  instances: number;
  /** Answers that did not parse (the agent's invalid_answer), failed, or ran out of time. */
  answers: { answered: number; invalid_answer: number; failed: number; timeout: number };
  harness_errors: number;
  pass_at_1: PassAt1;
}

/** Pass@1 over a set of records: pass / (pass + fail); a skip or an infrastructure fault is neither. */
export function passAt1(records: readonly ReadmeRecord[]): PassAt1 {
  const of = (s: string) => records.filter((r) => r.pass?.status === s).length;
  const passed = of('pass');
  const attempted = passed + of('fail');
  return { passed, attempted, rate: attempted === 0 ? null : passed / attempted, skipped: of('skipped'), infra_errors: of('infra_error') };
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
      };
    }),
  };
}
