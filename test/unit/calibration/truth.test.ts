import { parseCalibrationTruth } from '../../../src/calibration/truth';
import { truth } from './truthFixture';

const text = (overrides: Record<string, unknown> = {}) => JSON.stringify({ ...truth(), ...overrides });

test('a truth parses, with defaults for what it leaves out', () => {
  const t = parseCalibrationTruth(text(), 'python/x');
  expect(t).toMatchObject({ language: 'python', declared_as: {}, known: [] });
  expect(t.build).toBeUndefined();
});

test('a truth that contradicts itself is refused, naming the project and the problem', () => {
  expect(() => parseCalibrationTruth(text({ run: { used: ['a'], unused: ['a'], complete: true } }), 'python/x')).toThrow(/python\/x.*a is both used and unused/s);
  expect(() => parseCalibrationTruth(text({ confirmation: { a: 'needed', b: 'unneeded' } }), 'python/x')).toThrow(/no verdict for the declared pyyaml/);
  expect(() => parseCalibrationTruth(text({ declared_as: { zz: 'z' } }), 'python/x')).toThrow(/declared_as: zz is not declared/);
  const twice = { layer: 'traced', name: 'a', envgap: 'absent', reason: 'r' };
  expect(() => parseCalibrationTruth(text({ known: [twice, twice] }), 'python/x')).toThrow(/traced:a twice/);
  expect(() => parseCalibrationTruth(text({ language: 'rust' }), 'python/x')).toThrow(/language/);
  expect(() => parseCalibrationTruth(text({ confirmation_broke: { b: 'build-failed' } }), 'python/x')).toThrow(/confirmation_broke: b is not a needed name/);
  expect(() => parseCalibrationTruth(text({ confirmation_broke: { a: 'exploded' } }), 'python/x')).toThrow(/python\/x.*confirmation_broke/s);
});
