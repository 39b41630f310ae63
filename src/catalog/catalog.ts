import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { Language } from '../domain/instance';
import { CATALOG_FILE, CatalogFile, CatalogTask, promptPath } from './schema';

/** The repository's catalog/ folder, found upwards from this file (src/catalog under jest, dist/src/catalog when built). */
export const DEFAULT_CATALOG_DIR = findUp(__dirname, 'catalog/tasks.json') ?? path.resolve(__dirname, '../../catalog');

function findUp(start: string, relative: string): string | null {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, relative))) return path.dirname(path.join(dir, relative));
    if (path.dirname(dir) === dir) return null;
  }
}

export class Catalog {
  private readonly byId: Map<string, CatalogTask>;

  constructor(
    readonly dir: string,
    readonly file: CatalogFile,
  ) {
    this.byId = new Map(file.tasks.map((task) => [task.id, task]));
  }

  get tasks(): readonly CatalogTask[] {
    return this.file.tasks;
  }

  task(id: string): CatalogTask {
    const task = this.byId.get(id);
    if (!task) {
      throw new Error(`unknown task "${id}": not in ${path.join(this.dir, CATALOG_FILE)} (${this.file.tasks.length} tasks)`);
    }
    return task;
  }

  prompt(id: string, language: Language): string {
    this.task(id);
    const file = path.join(this.dir, promptPath(id, language));
    try {
      return fs.readFileSync(file, 'utf8');
    } catch (e) {
      throw new Error(`task "${id}" has no ${language} prompt: cannot read ${file} (${(e as Error).message})`);
    }
  }
}

export function loadCatalog(dir: string = DEFAULT_CATALOG_DIR): Catalog {
  const file = path.join(dir, CATALOG_FILE);
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read catalog ${file}: ${(e as Error).message}`);
  }
  const parsed = CatalogFile.safeParse(raw);
  if (!parsed.success) throw new Error(`invalid catalog ${file}:\n${z.prettifyError(parsed.error)}`);
  return new Catalog(dir, parsed.data);
}
