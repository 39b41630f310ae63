import { z } from 'zod';

export const CATALOG_SCHEMA = 'envgap.catalog/v1';
export const CATALOG_FILE = 'tasks.json';

/** Task ids name prompt files, so they are restricted to file-name-safe characters. */
export const TaskId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'task id must be letters, digits, "_" or "-"');

export const CatalogTask = z.strictObject({
  id: TaskId,
  title: z.string().min(1),
  domain: z.string().min(1),
  complexity: z.string(),
  dependency_relevance: z.string(),
  description: z.string(),
  /** Whether the standard library alone can solve the task; unknown (null) until measured. */
  stdlib_sufficient: z.boolean().nullable(),
});
export type CatalogTask = z.infer<typeof CatalogTask>;

export const CatalogFile = z
  .strictObject({
    schema: z.literal(CATALOG_SCHEMA),
    source: z.string(),
    tasks: z.array(CatalogTask),
  })
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.tasks.forEach((task, index) => {
      if (seen.has(task.id)) ctx.addIssue({ code: 'custom', path: ['tasks', index, 'id'], message: `duplicate task id "${task.id}"` });
      seen.add(task.id);
    });
  });
export type CatalogFile = z.infer<typeof CatalogFile>;

/** Where a task's prompt lives, relative to the catalog folder. */
export function promptPath(taskId: string, language: string): string {
  return `prompts/${language}/${taskId}.md`;
}
