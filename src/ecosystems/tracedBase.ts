import { layer } from './ecosystem';

/**
 * `traced_base` where D3 and D2 name packages alike: the names of D3 not in D2, which the run loaded
 * from what the image already had (Python's venv seeds pip and setuptools), never installed by the
 * manifest. D3 keeps them, as the paper defines it; the record lists them apart so that D3 is never
 * silently outside D2. Reads no artefact.
 */
export const TRACED_OUTSIDE_INSTALLED = layer([], (_t, traced: string[], installed: string[]) => {
  const inD2 = new Set(installed);
  return traced.filter((name) => !inD2.has(name));
});
