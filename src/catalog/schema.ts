import { z } from 'zod';

export const CATALOG_SCHEMA = 'envgap.catalog/v1';
export const CATALOG_FILE = 'tasks.json';

/** Task ids name prompt files, so they are restricted to file-name-safe characters. */
export const TaskId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'task id must be letters, digits, "_" or "-"');

/** Standard-library sufficiency per language. */
export const StdlibByLanguage = z.strictObject({ python: z.boolean(), java: z.boolean(), javascript: z.boolean(), cpp: z.boolean() });
export type StdlibByLanguage = z.infer<typeof StdlibByLanguage>;

export const CatalogTask = z.strictObject({
  id: TaskId,
  title: z.string().min(1),
  domain: z.string().min(1),
  complexity: z.string(),
  dependency_relevance: z.string(),
  description: z.string(),
  /**
   * Whether the language's standard library alone can solve the task (M7's eligibility, docs/metrics.md):
   * per language, judged a priori from the prompt (docs/metrics.md, "M7"); one
   * value for every language; or null, unknown (then M7 reads it off the runs).
   */
  stdlib_sufficient: z.union([z.boolean(), StdlibByLanguage]).nullable(),
  /** Why, in one line: which facilities the task needs and which standard libraries have them. */
  stdlib_reason: z.string().min(1).optional(),
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
