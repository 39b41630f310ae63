import { CalibrationTruth } from '../../../src/calibration/truth';

/** A small truth to vary in the calibration unit tests. */
export function truth(overrides: Partial<Record<keyof CalibrationTruth, unknown>> = {}): CalibrationTruth {
  return CalibrationTruth.parse({
    language: 'python',
    about: 'test',
    declared: ['a', 'b', 'pyyaml'],
    installed: { includes: ['a', 'b', 'pyyaml'], excludes: ['pip'] },
    run: { used: ['a', 'pyyaml', 'dep'], unused: ['b'], complete: true },
    confirmation: { a: 'needed', b: 'unneeded', pyyaml: 'needed' },
    cases: [{ id: 'c', about: 'a case', names: ['a'] }],
    ...overrides,
  });
}
