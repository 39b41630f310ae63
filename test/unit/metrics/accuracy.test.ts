import { accuracySummary, instanceAccuracy } from '../../../src/metrics/accuracy';
import { failed, instance, instances, record } from './records';

describe('M4 manifest accuracy', () => {
  it('P = |D1 n D3| / n1, R = |D1 n D3| / n3, F1 their harmonic mean', () => {
    const score = instanceAccuracy(instance({ declared: ['a', 'b', 'c', 'd'], traced: ['a', 'b'] }))!;
    expect(score.precision).toBe(0.5);
    expect(score.recall).toBe(1);
    expect(score.f1).toBeCloseTo(2 / 3, 15);
  });

  it('P = 1 when n1 = 0, R = 1 when n3 = 0', () => {
    expect(instanceAccuracy(instance({ declared: [], traced: ['a'] }))).toEqual({ precision: 1, recall: 0, f1: 0 });
    expect(instanceAccuracy(instance({ declared: ['a'], traced: [] }))).toEqual({ precision: 0, recall: 1, f1: 0 });
  });

  it('F1 is 0 when P + R = 0', () => {
    expect(instanceAccuracy(instance({ declared: ['a'], traced: ['b'] }))).toEqual({ precision: 0, recall: 0, f1: 0 });
  });

  it('leaves out instances with n1 = n3 = 0, failures, and missing sets', () => {
    expect(instanceAccuracy(instance({ declared: [], traced: [] }))).toBeNull();
    expect(instanceAccuracy(instances(failed({ declared: ['a'] }))[0])).toBeNull();
    expect(instanceAccuracy(instance({ declared: ['a'], traced: null }))).toBeNull();
  });

  it('averages per-instance scores, so F1 is not the harmonic mean of the mean P and R', () => {
    const group = instances(
      record({ task: 'p_01', declared: ['a'], traced: ['a', 'b', 'c', 'd'] }), // P 1, R 0.25, F1 0.4
      record({ task: 'p_02', declared: ['a', 'b', 'c', 'd'], traced: ['a'] }), // P 0.25, R 1, F1 0.4
      record({ task: 'p_03', declared: [], traced: [] }), // left out
    );
    const summary = accuracySummary(group);
    expect(summary.accuracy_n).toBe(2);
    expect(summary.precision).toBe(0.625);
    expect(summary.recall).toBe(0.625);
    expect(summary.f1).toBeCloseTo(0.4, 15);
  });

  it('is undefined (null) for a group with nothing to score', () => {
    expect(accuracySummary(instances(record()))).toEqual({ accuracy_n: 0, precision: null, recall: null, f1: null });
  });
});
