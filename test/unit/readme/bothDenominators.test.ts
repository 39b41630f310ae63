import type { DetectedError, GoldAnswer, ReadmeRecord } from '../../../src/domain/readme';
import { readmeStudyMetrics, passAt1 } from '../../../src/metrics/readmeStudy';
import { deterministicJudge } from '../../../src/metrics/readme/deterministicJudge';
import { scoreReadme } from '../../../src/metrics/readme/scoreReadme';
import { readmeMetricsTable } from '../../../src/cli/readmeMetrics';

type Pass = NonNullable<ReadmeRecord['pass']>;
const verdict = (status: Pass['status']): Pass => ({ status, reason: null, exit_code: status === 'pass' ? 0 : 1, timed_out: false, missing_imports: 0, missing: [], duration_s: 1, log_excerpt: null });

function record(instance: string, over: Partial<ReadmeRecord>): ReadmeRecord {
  return {
    schema: 'envgap.readme/v1', study: 's', instance_id: `s/a/${instance}/1`, agent: 'a', agent_kind: 'replay', instance, repo_folder: 'error_gen_x_y',
    repository: 'x/y', trial: 1, status: 'completed', gold: { errors: 1, types: ['E1'], level: null }, answer: null, score: null, pass: null, error: null, ...over,
  };
}

const fault = (instance: string, over: Partial<ReadmeRecord> = {}) => record(instance, { status: 'error', error: { kind: 'docker', message: 'gone' }, ...over });
const e1: DetectedError = { error_type: 'E1', error_description: 'pip install fails: missing package foo', fix_suggestion: 'pip install foo' };

describe('README scores under both denominators: harness faults left out, and counted as failures', () => {
  it('Pass@1: the scripts’ infrastructure faults and the faulted instances count as failures', () => {
    const p = passAt1([
      record('r1', { pass: verdict('pass') }), record('r2', { pass: verdict('fail') }), record('r3', { pass: verdict('infra_error') }), fault('r4'),
    ]);
    expect(p).toMatchObject({ passed: 1, attempted: 2, rate: 0.5, infra_errors: 1, harness_errors: 2, rate_errors_as_failures: 0.25, rate_errors_delta: -0.25 });
  });

  it('Pass@1 off for the study: a fault has no verdict to miss', () => {
    expect(passAt1([record('r1', {}), fault('r2')])).toMatchObject({ rate: null, harness_errors: 0, rate_errors_as_failures: null });
  });

  it('type P/R/F1 and the accuracies: a faulted README scores as one without an answer', async () => {
    const gold: GoldAnswer = { errors: [{ error_type: 'E1', error_description: 'pip install fails: missing package foo', correction_candidates: ['pip install foo'], golden_answer: 'pip install foo' }] };
    const score = await scoreReadme('r1', gold, [e1], deterministicJudge);
    const { groups } = readmeStudyMetrics([record('r1', { score: score as unknown as Record<string, unknown> }), fault('r2'), fault('r3', { gold: null })]);
    const [g] = groups;
    expect(g.type).toMatchObject({ precision: 1, recall: 1, f1: 1 });
    // r2's gold E1 is a miss; r3 has no gold to score against and stays out.
    expect(g.errors_as_failures).toMatchObject({ harness_errors: 1, type: { precision: 1, recall: 0.5 } });
    expect(g.errors_as_failures.type.f1).toBeCloseTo(2 / 3, 12);
    expect(g.errors_as_failures.delta.type.recall).toBe(-0.5);
    expect(g.errors_as_failures.description_accuracy).toBe(g.description_accuracy === null ? null : g.description_accuracy / 2);
    expect(readmeMetricsTable([record('r1', { score: score as unknown as Record<string, unknown> }), fault('r2')])).toMatch(/a: with the harness faults counted as failures: type P\/R\/F1 1\.000\/0\.500\/0\.667/);
  });
});
