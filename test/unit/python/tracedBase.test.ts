import * as fs from 'node:fs';
import * as path from 'node:path';
import { finalLayers } from '../../../src/ecosystems/finalLayers';

// A real run in a venv (which seeds pip and setuptools) of a program that imports pkg_resources,
// setuptools' module, beside python-dateutil, the one requirement: test/fixtures/outputs/README.md.
const fixture = (name: string) => fs.readFileSync(path.join(__dirname, '../../fixtures/outputs/python-venv-setuptools', name), 'utf8');
const texts = {
  installedBefore: fixture('before.json'),
  installedAfter: fixture('after.json'),
  distributionIndex: fixture('dists.json'),
  baselineTrace: fixture('baseline.trace'),
  runTrace: fixture('run.trace'),
};

describe('Python: what the run loads from the venv itself', () => {
  const layers = finalLayers('python', texts, {}, { installed: true, traced: true });

  it('is in D3 but not in D2 (the install did not bring it), and the record lists it apart', () => {
    expect(layers.installed).toEqual(['python-dateutil', 'six']);
    expect(layers.traced).toEqual(['python-dateutil', 'setuptools', 'six']);
    expect(layers.tracedBase).toEqual(['setuptools']);
  });

  it('D3 less traced_base is within D2', () => {
    const apart = new Set(layers.tracedBase);
    for (const name of layers.traced!.filter((n) => !apart.has(n))) expect(layers.installed).toContain(name);
  });
});

describe('Python: the distribution index is read by the one parser readiness uses too', () => {
  it('an entry without its files list names the artefact and the entry', () => {
    const broken = JSON.stringify([{ name: 'six', version: '1.16.0', location: '/opt/venv/lib/python3.11/site-packages' }]);
    expect(() => finalLayers('python', { ...texts, distributionIndex: broken }, {}, { installed: true, traced: true })).toThrow(/distributionIndex: entry 0 lacks a string name, version, location or a files list/);
  });
});
