import * as python from '../../../src/ecosystems/python';

describe('python ecosystem barrel', () => {
  it('re-exports the public API', () => {
    for (const name of [
      'normalizePythonName', 'parseRequirements', 'ManifestError', 'parseStraceOpenedFiles', 'parseStraceLine',
      'buildFileIndex', 'mapFilesToDistributions', 'parsePipListJson', 'diffInstalled', 'findPythonEntry',
      'classifyPythonFailure', 'errorTail',
    ]) {
      expect(typeof (python as Record<string, unknown>)[name]).toBe('function');
    }
  });
});
