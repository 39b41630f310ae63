import * as fs from 'node:fs';
import * as path from 'node:path';

// Imports point down, never up: pure code (domain, ecosystems, metrics) knows nothing of the adapters
// (agents, catalog, CLI), the world (activities, infra, db) or the workflows that orchestrate them.
const SRC = path.resolve(__dirname, '../../src');
const PURE = ['domain', 'ecosystems', 'metrics', 'text'];
const ABOVE_PURE = ['activities', 'agents', 'catalog', 'cli', 'db', 'infra', 'workers', 'workflows', 'bench', 'importers'];

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

function relativeImports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)].map((m) => path.relative(SRC, path.resolve(path.dirname(file), m[1])));
}

const files = PURE.flatMap((layer) => (fs.existsSync(path.join(SRC, layer)) ? tsFiles(path.join(SRC, layer)) : []));

test.each(files.map((f) => path.relative(SRC, f)))('%s imports nothing above the pure layers', (rel) => {
  const upward = relativeImports(path.join(SRC, rel)).filter((target) => ABOVE_PURE.includes(target.split(path.sep)[0]));
  expect(upward).toEqual([]);
});

test('the lint sees the pure files', () => {
  expect(files.length).toBeGreaterThan(50);
});
