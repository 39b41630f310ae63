import * as fs from 'node:fs';
import * as path from 'node:path';

/** The browser builds of vega and vega-lite from their npm packages, to embed in the report. */
export function reportLibraries(): { vega: string; vegaLite: string } {
  // Both packages export only their module entry; their minified browser builds sit beside it.
  const build = (pkg: string) => path.dirname(require.resolve(pkg));
  return {
    vega: fs.readFileSync(path.join(build('vega'), 'vega.min.js'), 'utf8'),
    vegaLite: fs.readFileSync(path.join(build('vega-lite'), 'vega-lite.min.js'), 'utf8'),
  };
}
