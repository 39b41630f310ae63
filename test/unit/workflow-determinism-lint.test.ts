import * as fs from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';

// Workflows must be deterministic: no Node builtins, no I/O libraries, and activities imported as
// types only (their code runs in workers, never in the workflow sandbox).
const root = path.resolve(__dirname, '../../src/workflows');
const files = fs.readdirSync(root).filter((f) => f.endsWith('.ts'));
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const ioLibraries = ['dockerode', 'pg', 'kysely', '@electric-sql/pglite', 'yaml', 'tar-stream', '@temporalio/client', '@temporalio/worker', '@temporalio/activity'];

function importsOf(text: string): { spec: string; typeOnly: boolean }[] {
  const re = /^\s*(?:import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\)/gm;
  const out: { spec: string; typeOnly: boolean }[] = [];
  for (const m of text.matchAll(re)) out.push({ spec: m[2] ?? m[3] ?? m[4], typeOnly: Boolean(m[1]) });
  return out;
}

test.each(files)('%s imports no Node builtin, no I/O library, and activities as types only', (file) => {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  for (const { spec, typeOnly } of importsOf(text)) {
    expect({ file, spec, builtin: builtins.has(spec) }).toEqual({ file, spec, builtin: false });
    if (!typeOnly) {
      expect({ file, spec, io: ioLibraries.includes(spec) }).toEqual({ file, spec, io: false });
      expect({ file, spec, activityValueImport: spec.includes('/activities') }).toEqual({ file, spec, activityValueImport: false });
    }
  }
  expect(text).not.toMatch(/\b(Date\.now|Math\.random|setTimeout|process\.)\b/);
});

test('the lint sees imports at all', () => {
  expect(importsOf("import type { A } from '../activities';\nimport * as fs from 'node:fs';")).toEqual([
    { spec: '../activities', typeOnly: true },
    { spec: 'node:fs', typeOnly: false },
  ]);
});

// The sandbox evaluates every module of the workflow bundle again for each new workflow (per-workflow
// isolation of the reusable V8 context), so what the workflows import is paid once per instance: zod
// alone was about 25 ms of each instance's first workflow task. Walk the value imports from the
// workflows' entry and refuse heavy libraries.
const heavyLibraries = ['zod', 'yaml', 'fast-xml-parser', 'commander'];

function workflowGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const visit = (file: string) => {
    if (graph.has(file)) return;
    const specs = importsOf(fs.readFileSync(file, 'utf8')).filter((i) => !i.typeOnly).map((i) => i.spec);
    graph.set(file, specs);
    for (const spec of specs) {
      if (!spec.startsWith('.')) continue;
      const base = path.resolve(path.dirname(file), spec);
      const next = [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f));
      if (next) visit(next);
    }
  };
  visit(path.join(root, 'index.ts'));
  return graph;
}

test('the modules the workflows load import no heavy library (each new workflow evaluates them all)', () => {
  const graph = workflowGraph();
  expect(graph.size).toBeGreaterThan(10);
  const offenders = [...graph].flatMap(([file, specs]) => specs.filter((s) => heavyLibraries.includes(s)).map((s) => `${path.relative(root, file)} imports ${s}`));
  expect(offenders).toEqual([]);
});
