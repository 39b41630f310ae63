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
  const re = /^\s*import\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\)/gm;
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
