import { ManifestError } from '../../src/ecosystems/manifestError';

/** The ManifestError `fn` throws; fails the test when it throws nothing or something else. */
export function manifestError(fn: () => unknown): ManifestError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ManifestError);
    return e as ManifestError;
  }
  throw new Error('expected a ManifestError');
}
