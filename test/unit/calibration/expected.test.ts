import { envgapExpectation, layerMismatches, reportedPhantoms, truePhantoms, truthOfLayer } from '../../../src/calibration/expected';
import { truth } from './truthFixture';

test('the truth of each layer', () => {
  const t = truth({ build: { used: ['a'], unused: ['b'] } });
  expect(truthOfLayer(t, 'declared')).toEqual({ present: ['a', 'b', 'pyyaml'], absent: [], exact: true });
  expect(truthOfLayer(t, 'installed')).toEqual({ present: ['a', 'b', 'pyyaml'], absent: ['pip'], exact: false });
  expect(truthOfLayer(t, 'traced')).toEqual({ present: ['a', 'pyyaml', 'dep'], absent: ['b'], exact: true });
  expect(truthOfLayer(t, 'traced_build')).toEqual({ present: ['a'], absent: ['b'], exact: false });
  expect(truthOfLayer(t, 'phantoms')).toEqual({ present: ['b'], absent: [], exact: true });
  expect(truthOfLayer(truth(), 'traced_build')).toBeNull();
});

test('a declared name used under another name is no true phantom; the metrics count it one', () => {
  const t = truth({ declared: ['zlib', 'b'], confirmation: { zlib: 'needed', b: 'unneeded' }, run: { used: ['z'], unused: [], complete: true }, declared_as: { zlib: 'z' } });
  expect(truePhantoms(t)).toEqual(['b']);
  expect(reportedPhantoms(['zlib', 'b'], ['z'])).toEqual(['b', 'zlib']);
});

test('known limitations turn the truth into what envgap gives today', () => {
  const t = truth({
    known: [
      { layer: 'traced', name: 'pyyaml', envgap: 'absent', reason: 'r' },
      { layer: 'traced', name: 'yaml', envgap: 'present', reason: 'r' },
      { layer: 'phantoms', name: 'pyyaml', envgap: 'present', reason: 'r' },
    ],
  });
  expect(envgapExpectation(t, 'traced')).toEqual({ present: ['a', 'dep', 'yaml'], absent: ['b', 'pyyaml'], exact: true });
  expect(envgapExpectation(t, 'phantoms')).toEqual({ present: ['b', 'pyyaml'], absent: [], exact: true });
  expect(envgapExpectation(t, 'declared')).toEqual({ present: ['a', 'b', 'pyyaml'], absent: [], exact: true });
  expect(() => envgapExpectation(truth({ known: [{ layer: 'traced_build', name: 'a', envgap: 'absent', reason: 'r' }] }), 'traced_build')).toThrow(/no traced_build/);
});

test('mismatches: what is missing, what must not be there, and anything else where the layer is exact', () => {
  expect(layerMismatches({ present: ['a'], absent: ['b'], exact: false }, ['a', 'c'])).toEqual([]);
  expect(layerMismatches({ present: ['a'], absent: ['b'], exact: false }, ['b', 'c'])).toEqual(['missing a', 'unexpected b']);
  expect(layerMismatches({ present: ['a'], absent: [], exact: true }, ['a', 'c'])).toEqual(['unexpected c']);
  expect(layerMismatches({ present: [], absent: [], exact: true }, null)).toEqual(['the layer is absent (null)']);
});
