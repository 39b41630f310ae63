import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { LANGUAGES } from '../domain/instance';
import { parseCsvRecords } from './csv';
import { CATALOG_FILE, CATALOG_SCHEMA, CatalogFile, CatalogTask, promptPath } from './schema';

export const ENVGAP_SOURCE =
  'EnvGap data and prompts by Bhanu Prakash Vangala and Tanu Malik, CC BY 4.0 (github.com/bhanuprakashvangala/EnvGap)';

const OVERVIEW_COLUMNS = ['prompt_id', 'task_title', 'category', 'complexity', 'dependency_relevance', 'description'];

/**
 * The a-priori standard-library annotations of a catalog already in `dir` (the data set has none, so a
 * re-import keeps them), by task id; none where there is no readable catalog.
 */
function existingStdlibAnnotations(dir: string): Map<string, Pick<CatalogTask, 'stdlib_sufficient' | 'stdlib_reason'>> {
  const out = new Map<string, Pick<CatalogTask, 'stdlib_sufficient' | 'stdlib_reason'>>();
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(path.join(dir, CATALOG_FILE), 'utf8'));
  } catch {
    return out;
  }
  const parsed = CatalogFile.safeParse(raw);
  if (!parsed.success) return out;
  for (const t of parsed.data.tasks) {
    if (t.stdlib_sufficient !== null) out.set(t.id, { stdlib_sufficient: t.stdlib_sufficient, ...(t.stdlib_reason ? { stdlib_reason: t.stdlib_reason } : {}) });
  }
  return out;
}

/**
 * Turns the published EnvGap prompt set (<srcDir>/prompts/prompt_overview.csv and
 * <srcDir>/prompts/<language>/<id>.md) into this repository's catalog: <outDir>/tasks.json and
 * <outDir>/prompts/<language>/<id>.md. Every task must have a prompt in every language.
 */
export function importCatalog(srcDir: string, outDir: string): { tasks: number } {
  const overviewPath = path.join(srcDir, 'prompts', 'prompt_overview.csv');
  const records = parseCsvRecords(fs.readFileSync(overviewPath, 'utf8'));
  const missingColumns = OVERVIEW_COLUMNS.filter((column) => records.length > 0 && !(column in records[0]));
  if (missingColumns.length > 0) throw new Error(`${overviewPath}: missing column(s) ${missingColumns.join(', ')}`);

  const annotated = existingStdlibAnnotations(outDir);
  const tasks: CatalogTask[] = records.map((r) => ({
    id: r.prompt_id.trim(),
    title: r.task_title.trim(),
    domain: r.category.trim(),
    complexity: r.complexity.trim(),
    dependency_relevance: r.dependency_relevance.trim(),
    description: r.description.trim(),
    stdlib_sufficient: null,
    ...annotated.get(r.prompt_id.trim()),
  }));
  const parsed = CatalogFile.safeParse({ schema: CATALOG_SCHEMA, source: ENVGAP_SOURCE, tasks });
  if (!parsed.success) throw new Error(`${overviewPath}: ${z.prettifyError(parsed.error)}`);
  const catalog = parsed.data;

  // Read every prompt before writing anything, so a missing one leaves outDir untouched.
  const prompts = catalog.tasks.flatMap((task) =>
    LANGUAGES.map((language) => {
      const from = path.join(srcDir, 'prompts', language, `${task.id}.md`);
      if (!fs.existsSync(from)) throw new Error(`task ${task.id} has no ${language} prompt: ${from} is missing`);
      return { to: path.join(outDir, promptPath(task.id, language)), text: fs.readFileSync(from, 'utf8') };
    }),
  );

  for (const prompt of prompts) {
    fs.mkdirSync(path.dirname(prompt.to), { recursive: true });
    fs.writeFileSync(prompt.to, prompt.text);
  }
  fs.writeFileSync(path.join(outDir, CATALOG_FILE), JSON.stringify(catalog, null, 2) + '\n');
  return { tasks: catalog.tasks.length };
}
